import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { INSTALLER_MESSAGES, INSTALLER_PATH, InstallerAnswer, MAX_INSTALLER_BYTES } from "@contract/application-crawler";
import { harness, message, type Harness } from "./helpers";
import { tokenWith } from "./token-with";

function put(h: Harness, token: string, parts: [string, string | File][]) {
  const form = new FormData();
  for (const [k, v] of parts) form.append(k, v);
  return h.up.fetch(new Request(`http://upstream.test${INSTALLER_PATH}`, { method: "PUT", headers: { authorization: `Bearer ${token}` }, body: form }));
}

const setup = (bytes: string, name = "CrawlerSetup.exe") => new File([bytes], name, { type: "application/vnd.microsoft.portable-executable" });
const installerFiles = (h: Harness) => {
  const dir = path.join(h.dir, "files", "installers", "application-crawler");
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => !f.startsWith(".")) : [];
};

describe("/api/application-crawler/installer", () => {
  test("none until uploaded; upload, download byte for byte, replace (the old bytes go), delete", async () => {
    const h = await harness();
    const t = h.adminToken;
    expect(InstallerAnswer.parse(await (await h.call("GET", INSTALLER_PATH, { token: t })).json())).toEqual({ installer: null });
    const missing = await h.call("GET", `${INSTALLER_PATH}/file`, { token: t });
    expect(missing.status).toBe(404);
    expect(await message(missing)).toBe(INSTALLER_MESSAGES.notFound);

    const first = await put(h, t, [["version", " 2.4.1 "], ["file", setup("MZ first build")]]);
    expect(first.status, await first.clone().text()).toBe(200);
    expect(InstallerAnswer.parse(await first.json()).installer).toMatchObject({
      name: "CrawlerSetup.exe",
      version: "2.4.1",
      size: 14,
      sha256: crypto.createHash("sha256").update("MZ first build").digest("hex"),
      uploadedBy: "admin@example.com",
    });
    const download = await h.call("GET", `${INSTALLER_PATH}/file`, { token: t });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toContain('filename="CrawlerSetup.exe"');
    expect(download.headers.get("content-length")).toBe("14");
    expect(await download.text()).toBe("MZ first build");

    const second = await put(h, t, [["version", "2.5.0"], ["file", setup("MZ second", "Crawler-2.5.0.msi")]]);
    expect(InstallerAnswer.parse(await second.json()).installer).toMatchObject({ name: "Crawler-2.5.0.msi", version: "2.5.0", size: 9 });
    expect(await (await h.call("GET", `${INSTALLER_PATH}/file`, { token: t })).text()).toBe("MZ second");
    expect(installerFiles(h)).toHaveLength(1);

    expect((await h.call("DELETE", INSTALLER_PATH, { token: t })).status).toBe(204);
    expect(installerFiles(h)).toHaveLength(0);
    expect(InstallerAnswer.parse(await (await h.call("GET", INSTALLER_PATH, { token: t })).json())).toEqual({ installer: null });
    expect((await h.call("DELETE", INSTALLER_PATH, { token: t })).status).toBe(404);
  });

  test("refuses a missing or bad version, no file, two files, a file of another type, a body too large", async () => {
    const h = await harness();
    const t = h.adminToken;
    const cases: [[string, string | File][], string][] = [
      [[["file", setup("MZ")]], INSTALLER_MESSAGES.versionRequired],
      [[["version", "1.0 beta"], ["file", setup("MZ")]], INSTALLER_MESSAGES.badVersion],
      [[["version", "x".repeat(41)], ["file", setup("MZ")]], "Version must be at most 40 characters."],
      [[["version", "1.0"]], INSTALLER_MESSAGES.fileRequired],
      [[["version", "1.0"], ["file", setup("MZ")], ["file", setup("MZ")]], INSTALLER_MESSAGES.oneFile],
      [[["version", "1.0"], ["file", setup("echo", "setup.sh")]], INSTALLER_MESSAGES.wrongType],
    ];
    for (const [parts, expected] of cases) {
      const res = await put(h, t, parts);
      expect(res.status).toBe(400);
      expect(await message(res)).toContain(expected);
    }
    const json = await h.call("PUT", INSTALLER_PATH, { token: t, body: { version: "1.0" } });
    expect(json.status).toBe(400);
    const huge = await h.up.fetch(
      new Request(`http://upstream.test${INSTALLER_PATH}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${t}`, "content-type": "multipart/form-data; boundary=x", "content-length": String(MAX_INSTALLER_BYTES + 65 * 1024) },
        body: "--x--",
      }),
    );
    expect(huge.status).toBe(413);
    expect(installerFiles(h)).toHaveLength(0);
  });

  test("applications.read reads and downloads; uploading and deleting need administration", async () => {
    const h = await harness();
    await put(h, h.adminToken, [["version", "1.0"], ["file", setup("MZ")]]);
    const reader = await tokenWith(h, "reader@example.com", ["applications.read"]);
    expect((await h.call("GET", INSTALLER_PATH, { token: reader })).status).toBe(200);
    expect(await (await h.call("GET", `${INSTALLER_PATH}/file`, { token: reader })).text()).toBe("MZ");
    expect((await put(h, reader, [["version", "2.0"], ["file", setup("MZ")]])).status).toBe(403);
    expect((await h.call("DELETE", INSTALLER_PATH, { token: reader })).status).toBe(403);
    const admin = await tokenWith(h, "admin2@example.com", ["administration"]);
    expect((await h.call("GET", INSTALLER_PATH, { token: admin })).status).toBe(403);
    const none = await tokenWith(h, "none@example.com", ["messages"]);
    expect((await h.call("GET", `${INSTALLER_PATH}/file`, { token: none })).status).toBe(403);
    expect((await h.call("GET", INSTALLER_PATH)).status).toBe(401);
  });
});
