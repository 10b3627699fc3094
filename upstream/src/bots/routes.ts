import { Readable } from "node:stream";
import { Hono, type MiddlewareHandler } from "hono";
import { MAX_SCRIPT_BYTES, SCRIPT_NAME, scriptOf, type ScriptUploaded } from "../../contract/bots";
import type { UsersStore } from "../people/store";
import { HttpError, badRequest, fieldMessage, notFound, requirePermission, type AppEnv } from "../lib/http";
import { blobBytes, parseMultipartBody } from "../lib/multipart";
import type { BotScriptsStore } from "./store";

const BOT_MESSAGES = {
  botNotFound: "Bot not found.",
  noScript: "This bot has no script.",
  fileRequired: "A script file is required.",
  fileTooLarge: `The script file must be at most ${MAX_SCRIPT_BYTES / 1024 / 1024} MiB.`,
  badScriptName: "Script names hold letters, digits, hyphens, dots and underscores.",
  badFileName: "The file name holds letters, digits, hyphens, dots and underscores.",
} as const;

const localPart = (email: string) => email.slice(0, Math.max(0, email.indexOf("@"))) || email;

/** /api/auth/bots/* — bot users and their scripts. Bots are users with isBot (created through /api/auth/users). */
export function botRoutes(deps: { users: UsersStore; scripts: BotScriptsStore; requireAuth: MiddlewareHandler<AppEnv> }) {
  const { users, scripts, requireAuth } = deps;
  const app = new Hono<AppEnv>({ strict: false });
  const read = requirePermission("users.read");
  const write = requirePermission("users");

  const botByEmail = (raw: string) => {
    const email = raw.trim().toLowerCase();
    const id = users.findCredentials(email)?.id;
    const user = id ? users.get(id) : null;
    if (!user || !user.isBot) throw notFound(BOT_MESSAGES.botNotFound);
    return user;
  };

  app.get("/", requireAuth, read, (c) => c.json(users.bots()));

  app.get("/bot/scripts", requireAuth, read, (c) => c.json(scripts.scripts()));

  app.get("/:script/versions", requireAuth, read, (c) => c.json(scripts.versions(c.req.param("script"))));

  app.get("/:email/script/exists", requireAuth, read, (c) => {
    const key = botByEmail(c.req.param("email")).scriptKey;
    return c.json({ exists: !!key && scripts.exists(key) });
  });

  app.get("/:email/script", requireAuth, read, (c) => {
    const key = botByEmail(c.req.param("email")).scriptKey;
    const content = key ? scripts.stream(key) : null;
    if (!key || !content) throw notFound(BOT_MESSAGES.noScript);
    c.header("Content-Type", "text/javascript; charset=utf-8");
    c.header("X-Script-Key", key);
    return c.body(Readable.toWeb(content) as ReadableStream<Uint8Array>);
  });

  app.post("/:email/script", requireAuth, write, async (c) => {
    const bot = botByEmail(c.req.param("email"));
    const length = Number(c.req.header("content-length") ?? 0);
    if (length > MAX_SCRIPT_BYTES + 64 * 1024) throw new HttpError(413, BOT_MESSAGES.fileTooLarge);
    let body: Record<string, string | File | (string | File)[]>;
    try {
      body = await parseMultipartBody(c.req.raw);
    } catch {
      throw badRequest("Request body must be multipart/form-data");
    }
    const file = body.file;
    if (!(file instanceof File) || file.size === 0) throw badRequest(fieldMessage(["file"], BOT_MESSAGES.fileRequired));
    if (file.size > MAX_SCRIPT_BYTES) throw new HttpError(413, BOT_MESSAGES.fileTooLarge);
    const rawScript = typeof body.script === "string" ? body.script.trim() : "";
    const script = rawScript || scriptOf(bot.scriptKey) || localPart(bot.email);
    if (!SCRIPT_NAME.test(script)) throw badRequest(fieldMessage(["script"], BOT_MESSAGES.badScriptName));
    const fileName = file.name.split(/[\\/]/).pop()?.trim() || "script.js";
    if (!SCRIPT_NAME.test(fileName)) throw badRequest(fieldMessage(["file"], BOT_MESSAGES.badFileName));
    const message = typeof body.message === "string" ? body.message.trim().slice(0, 500) : "";
    const actor = c.get("actor").email;
    const stored = await scripts.add(script, fileName, await blobBytes(file), message, actor);
    users.update(bot.id, { scriptKey: stored.Key }, actor);
    return c.json({ ...stored, script } satisfies ScriptUploaded, 201);
  });

  // Versions are immutable: deleting a bot's script detaches it from the bot; the stored versions stay.
  app.delete("/:email/script", requireAuth, write, (c) => {
    const bot = botByEmail(c.req.param("email"));
    if (!bot.scriptKey) throw notFound(BOT_MESSAGES.noScript);
    users.update(bot.id, { scriptKey: null }, c.get("actor").email);
    return c.body(null, 204);
  });

  app.get("/:id", requireAuth, read, (c) => {
    const user = users.get(c.req.param("id"));
    if (!user || !user.isBot) throw notFound(BOT_MESSAGES.botNotFound);
    return c.json(user);
  });

  return app;
}
