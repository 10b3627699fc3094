import { formRoutes } from "./forms/routes";
import { FormsStore } from "./forms/store";
import { RecordFiles } from "./lib/record-files";
import { TemplateBackup } from "./templates/backup";
import { templateStorageRoutes } from "./templates/backup-routes";
import { drawingRoutes, shapeRoutes, visioRoutes, wordRoutes } from "./templates/routes";
import { DrawingsStore, ShapesStore, VisioTemplatesStore, WordTemplatesStore } from "./templates/store";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Hono } from "hono";
import { z } from "zod";
import { MIN_PASSWORD_LENGTH, PERMISSION_KEYS, type TokenPayload, type User } from "../contract";
import { hashPasswordSync, randomPassword } from "./auth/passwords";
import { authRoutes } from "./auth/routes";
import { SessionsStore } from "./auth/sessions";
import { UsersStore } from "./people/store";
import { cachedVerifier, signToken } from "./auth/tokens";
import { databaseFile, openDatabase, type Db } from "./db";
import { feedbackRoutes } from "./feedback/routes";
import { fileRoutes } from "./files/routes";
import { UploadsStore } from "./files/store";
import { bodyLimits, uploadGate } from "./lib/body-limit";
import { directUpstream, type DirectUpstream } from "./lib/direct";
import { LocalFileStore } from "./lib/files";
import { databaseHealth, type HealthReport } from "./lib/health";
import { bearerAuth, errorResponse, type AppEnv, type UpstreamEnv } from "./lib/http";
import { writeGate } from "./lib/write-gate";
import { LoginThrottle, type LoginLimits } from "./lib/rate-limit";
import { seedDemoInBackground } from "./applications/demo";
import { CategorizationRunner } from "./categorization/jobs";
import { categorizationRoutes } from "./categorization/routes";
import { JobsStore, QueriesStore } from "./categorization/store";
import { Tagger } from "./categorization/tagging";
import { portfolioRoutes } from "./applications/routes";
import { ApplicationsStore } from "./applications/store";
import { aiAdminRoutes } from "./ai-admin/routes";
import { createAiAdmin } from "./ai-admin/service";
import { organizationRoutes } from "./organizations/routes";
import { OrganizationsStore } from "./organizations/store";
import { messageRoutes } from "./messages/routes";
import { AppSettingsStore } from "./app-settings/store";
import { emailConnectorRoutes } from "./email-connector/routes";
import { applicationCrawlerRoutes } from "./application-crawler/routes";
import { reportRoutes } from "./reports/routes";
import { ReportsStore } from "./reports/store";
import { ruleRoutes } from "./rules/routes";
import { RulesStore } from "./rules/store";
import { MessagesStore } from "./messages/store";
import { nlpRoutes } from "./nlp/routes";
import { SqliteSearchEngine } from "./search/sqlite";
import { specificationRoutes } from "./specifications/routes";
import { SpecificationsStore } from "./specifications/store";
import { suggestRoutes as tagSuggestRoutes } from "./suggest/routes";
import { createSso, type SsoOptions } from "./sso/routes";
import { userRoutes } from "./people/routes";
import { assigneeSuggestRoutes, suggestRoutes } from "./people/suggest";
import { authorizationRoutes } from "./authorization/routes";
import { AuthorizationStore } from "./authorization/store";
import { botRoutes } from "./bots/routes";
import { BotScriptsStore } from "./bots/store";
import { settingsRoutes } from "./settings/routes";
import { SettingsStore } from "./settings/store";
import { teamRoutes } from "./teams/routes";
import { TeamsStore } from "./teams/store";
// queues, patent office, docket system
import { dispatcherRoutes, usptoRoutes } from "./dispatcher/routes";
import type { PortfolioSink } from "./dispatcher/portfolio-sink";
import { ApplicationsSink } from "./applications/office-sink";
import { QueueRuntime } from "./dispatcher/services";
import { QueueSettings } from "./dispatcher/settings";
import { DocketSystem, type DocketConfig } from "./fip/adapter";
import { fipRoutes } from "./fip/routes";
import { FipSync } from "./fip/service";
import { FipStore } from "./fip/store";
import { PatentOffice, type OfficeConfig } from "./patent-office/adapter";
import { SqliteJobQueue } from "./queue/sqlite-queue";
import { mountConverters, type ConverterOptions } from "./converters";
import { mountChains } from "./chains";
import { mountChainRuns } from "./chain-runs";
import { sharedCorpus } from "./chain-runs/corpus";
import { mountWorkflows } from "./workflows";
import { mountLibrary } from "./library";
import { mountInventions } from "./inventions";
import { mountChainContexts } from "./chain-context";

export type { UpstreamEnv } from "./lib/http";

export type UpstreamOptions = {
  /** SQLite file at `${dataDir}/backoffice.sqlite`; the directory is created. */
  dataDir: string;
  /** On an EMPTY users table, create this administrator holding every permission. */
  adminEmail?: string;
  /** The administrator's password; a random 16-character one when unset. Either way it is returned in `seeded`. */
  adminPassword?: string;
  /** Answered by GET /api/feedback/canny/redirectUrl; 404 when unset. */
  feedbackUrl?: string;
  /** Single sign-on: the service credential, the OpenID Connect provider, the SAML button. See sso/routes.ts. */
  sso?: SsoOptions;
  /** HS256 secret; else `${dataDir}/jwt-secret` (created with 32 random bytes, hex, mode 0600, on first start). */
  jwtSecret?: string;
  /** Token lifetime; default 3600. */
  tokenTtlSeconds?: number;
  /** Token `iss`; default "backoffice-upstream". */
  issuer?: string;
  /**
   * Portfolio demo: on a database that never had it, add this many demo applications in the background
   * after the start (a few milliseconds per turn of the event loop). Default 0 (none); the back office passes
   * PORTFOLIO_DEMO (default 3000).
   */
  portfolioDemo?: number;
  /** Clock in ms (tests); default Date.now. */
  now?: () => number;
  /** Where errors go; default console.error. */
  log?: (msg: string) => void;
  /** The job queues' workers, the patent office and the docket system (docs/decisions/job-queue.md). */
  queues?: QueueOptions;
  /** The converters' programs and bounds (docs/decisions/converters.md); defaults: Debian's, CONVERTER_LIMITS. */
  converters?: ConverterOptions;
};

type QueueOptions = {
  /** USPTO_API_URL / USPTO_API_KEY; unset parts make jobs fail naming the missing setting. */
  office?: OfficeConfig;
  /** FIP_API_URL / FIP_API_KEY / FIP_MATTER_URL. */
  docket?: DocketConfig;
  /** USPTO_CUSTOMER_NUMBERS: the firm's customer numbers the sync looks for. */
  customerNumbers?: readonly string[];
  /** Jobs run at once per queue in this process; 0 (the default) runs no worker and no schedule. */
  concurrency?: number;
  /** How often the FIP feed is read (default 5 min); only with a worker. */
  fipFeedMs?: number;
  /** Where processing and USPTO downloads write; default the portfolio itself (applications/office-sink.ts). */
  portfolio?: PortfolioSink;
  /** The fetch the adapters use (tests). */
  fetch?: typeof fetch;
};

export type Upstream = {
  /** The Hono app's fetch. */
  fetch(request: Request, env?: UpstreamEnv): Promise<Response>;
  /** The same app in-process without HTTP objects, JSON texts or a token check per call (lib/direct.ts). */
  direct: DirectUpstream;
  /** True while the open database is the file on disk and writable (see lib/health.ts). */
  health(): boolean;
  /**
   * The answer (401, 403) to an upload whose bearer token or permission does not allow it, judged from `request`'s
   * method, URL and headers alone (lib/body-limit.ts uploadGate); null when it may be sent. The back office asks
   * before an upload waits for room in its upload budget.
   */
  uploadRefusal(request: Request): Promise<Response | null>;
  /** The same check with the reason when unhealthy (`/healthz` says it). */
  healthReport(): HealthReport;
  /** The administrator created at this start, if any. */
  seeded: { email: string; password: string } | null;
  close(): void;
};

/** Sign-in throttling without lockout (upstream/README.md "Sign-in rate limit"). */
export const LOGIN_LIMITS = {
  // 3 free failures per (account, address), then 1 s, 2 s, 4 s … up to 15 min between attempts; forgotten after 24 h.
  perPair: { free: 3, baseDelayMs: 1000, maxDelayMs: 15 * 60_000, forgetMs: 24 * 60 * 60_000 },
  // Over 100 failures in an hour on one account, only addresses that have not failed on it may still try.
  perAccount: { max: 100, windowMs: 60 * 60_000 },
  perAddress: { max: 20, windowMs: 15 * 60_000 },
} as const satisfies LoginLimits;

function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, "jwt-secret");
  try {
    fs.writeFileSync(file, crypto.randomBytes(32).toString("hex"), { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const secret = fs.readFileSync(file, "utf8").trim();
  if (!secret) throw new Error(`${file} is empty; delete it to have a new secret generated.`);
  return secret;
}

function seedAdministrator(
  db: Db,
  users: UsersStore,
  email: string,
  password: string | undefined,
): { email: string; password: string } | null {
  const normalized = email.trim().toLowerCase();
  if (!z.string().email().safeParse(normalized).success) throw new Error(`ADMIN_EMAIL "${email}" is not an email.`);
  const chosen = password ?? randomPassword(16);
  if (chosen.length < MIN_PASSWORD_LENGTH) {
    throw new Error(`ADMIN_PASSWORD must be at least ${MIN_PASSWORD_LENGTH} characters long.`);
  }
  const passwordHash = hashPasswordSync(chosen);
  return db.transaction(() => {
    if (users.count() > 0) return null;
    users.create(
      {
        email: normalized,
        // Empty names: the home page then greets with the email (spec 1 §1); the administrator can add names later.
        firstName: "",
        lastName: "",
        passwordHash,
        isBot: false,
        scriptKey: null,
        organizations: [],
        permissions: [...PERMISSION_KEYS],
      },
      null,
    );
    return { email: normalized, password: chosen };
  })();
}

export function createUpstream(options: UpstreamOptions): Upstream {
  const now = options.now ?? Date.now;
  const log = options.log ?? ((msg: string) => console.error(msg));
  const issuer = options.issuer ?? "backoffice-upstream";
  const ttl = options.tokenTtlSeconds ?? 3600;
  if (!Number.isInteger(ttl) || ttl <= 0) throw new Error("tokenTtlSeconds must be a positive integer.");

  const db = openDatabase(options.dataDir);
  // Which file the database is, recorded right after opening (lib/health.ts); `/healthz` and the write gate share it.
  const dbHealth = databaseHealth(db, databaseFile(options.dataDir), { now });
  let closed = false;
  try {
    const secret = options.jwtSecret ?? readOrCreateSecret(options.dataDir);
    if (!secret) throw new Error("jwtSecret must not be empty.");
    const users = new UsersStore(db, now);
    const organizations = new OrganizationsStore(db, now);

    // Only when there is no user at all: checking costs a scrypt hash, so skip it when users exist.
    const seeded =
      options.adminEmail && users.count() === 0
        ? seedAdministrator(db, users, options.adminEmail, options.adminPassword)
        : null;

    const nowSeconds = () => Math.floor(now() / 1000);
    const sessions = new SessionsStore(db, now);
    /** A token inside session `sessionId` (refresh), or inside a new session (sign-in, single sign-on). */
    const issueToken = (user: User, sessionId?: string): string => {
      const iat = nowSeconds();
      const exp = iat + ttl;
      let sid = sessionId;
      if (sid) sessions.renew(sid, exp * 1000);
      else sid = sessions.open(user.id, exp * 1000);
      const payload: TokenPayload = {
        iss: issuer,
        sub: user.id,
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        permissions: user.permissions,
        sid,
        iat,
        exp,
      };
      return signToken(payload, secret);
    };
    const verify = cachedVerifier(secret, issuer, nowSeconds);
    const requireAuth = bearerAuth(verify, ({ sid, sub }) => sessions.actor(sid, sub));

    const sso = createSso(options.sso, { users, issueToken, now, log });

    const app = new Hono<AppEnv>({ strict: false });
    // A write is refused, or not acknowledged, unless the database is still the file on disk (lib/write-gate.ts).
    app.use("*", writeGate(dbHealth));
    // Every body is bounded before it is read: 1 MB, uploads by their documented limits (lib/body-limit.ts); then an
    // upload's token and permission are checked, still before its body is read (uploadGate).
    app.use("*", bodyLimits());
    const gate = uploadGate(requireAuth);
    app.use("*", gate);
    // The same gate alone, for the back office's process to ask before an upload waits for room (uploadRefusal).
    const gateOnly = new Hono<AppEnv>({ strict: false });
    gateOnly.use("*", gate);
    gateOnly.all("*", (c) => c.body(null, 204));
    gateOnly.onError((error, c) => errorResponse(c, error, log));
    // Single sign-on first: its paths are fixed (/microsoft, /microsoft/callback, /sso/exchange).
    app.route("/api/auth", sso.routes);
    app.route(
      "/api/auth",
      authRoutes({
        users,
        issueToken,
        providers: sso.providers,
        verifyToken: verify,
        requireAuth,
        sessions,
        throttle: new LoginThrottle(LOGIN_LIMITS, now),
      }),
    );
    app.route("/api/auth/users", userRoutes({ users, organizations, requireAuth, sessions }));
    // Models, speech-to-text services and the model permissions; the organizations' AI fields follow their rules.
    const ai = createAiAdmin(db, now);
    const aiRoutes = aiAdminRoutes({ ai, requireAuth });
    app.route("/api/v2/nlp/configurations", aiRoutes.configurations);
    app.route("/api/v2/nlp/stt", aiRoutes.stt);
    app.route("/api/v2/nlp/permissions", aiRoutes.permissions);
    app.route("/api/organizations", organizationRoutes({ organizations, ai, requireAuth }));
    const chains = mountChains(app, { db, now, ai, requireAuth });
    // One chains' corpus for the query links' runs and the invention search (docs/decisions/chain-runs.md).
    const chainCorpus = sharedCorpus({ db, dataDir: options.dataDir });
    const chainRuns = mountChainRuns(app, { db, now, ai, corpus: chainCorpus, requireAuth, log, converters: () => converters.service });
    mountInventions(app, { corpus: chainCorpus, requireAuth });
    mountChainContexts(app, { db, now, requireAuth });
    // Specifications and the document-driven generator.
    const specifications = new SpecificationsStore(db, now);
    app.route("/api/specifications", specificationRoutes({ specifications, requireAuth }));
    // Uploads kept between steps: the generator reads them by id.
    const uploads = new UploadsStore(db, new LocalFileStore(path.join(options.dataDir, "files")), now);
    app.route("/api/files", fileRoutes({ uploads, requireAuth }));
    app.route("/api/nlp/api/v1", nlpRoutes({ requireAuth, uploads }));
    // Templates and forms with their files, shapes from Visio masters, the template-storage backup.
    {
      const recordFiles = new RecordFiles(new LocalFileStore(path.join(options.dataDir, "files")), now);
      const templates = {
        word: new WordTemplatesStore(db, now),
        visio: new VisioTemplatesStore(db, now),
        drawings: new DrawingsStore(db, now),
        shapes: new ShapesStore(db, now),
        files: recordFiles,
        requireAuth,
      };
      app.route("/api/docs/word", wordRoutes(templates));
      app.route("/api/docs/visio", visioRoutes(templates));
      app.route("/api/drawings", drawingRoutes(templates));
      app.route("/api/shapes", shapeRoutes(templates));
      app.route("/api/forms", formRoutes({ forms: new FormsStore(db, now), organizations, files: recordFiles, requireAuth }));
      const backup = new TemplateBackup(db, recordFiles, now);
      app.route("/api/template-storage", templateStorageRoutes({ backup, requireAuth, now }));
    }
    mountLibrary(app, { db, now, requireAuth, secret, dataDir: options.dataDir, specifications, chains: chains.edits });
    // Portfolio tags (the categorization's tag input suggests them).
    const portfolioTags = db.prepare(
      "select name from tag_counts where instr(lower(name), ?) > 0 group by name order by instr(lower(name), ?) <> 1, sum(count) desc, name limit ?",
    );
    app.route(
      "/api/suggest",
      tagSuggestRoutes({
        requireAuth,
        tagSources: [
          { permission: "specifications.read", suggest: (q, n) => specifications.suggestTags(q, n) },
          { permission: "portfolio.read", suggest: (q, n) => (portfolioTags.all(q, q, n) as { name: string }[]).map((r) => r.name) },
        ],
      }),
    );
    // People and teams: teams, bots, suggestions, user settings, portfolio authorization.
    app.route("/api/auth/teams", teamRoutes({ teams: new TeamsStore(db, now), users, requireAuth }));
    app.route(
      "/api/auth/bots",
      botRoutes({
        users,
        scripts: new BotScriptsStore(db, new LocalFileStore(path.join(options.dataDir, "bot-scripts")), now),
        requireAuth,
      }),
    );
    app.route("/api/auth/suggest", suggestRoutes({ users, requireAuth }));
    app.route("/api/user-suggest", assigneeSuggestRoutes({ users, requireAuth }));
    app.route("/api/settings", settingsRoutes({ settings: new SettingsStore(db, now), users, requireAuth }));
    app.route(
      "/api/pair-authorizator",
      authorizationRoutes({ authorizations: new AuthorizationStore(db, now), requireAuth }),
    );
    app.route("/api/feedback", feedbackRoutes({ feedbackUrl: options.feedbackUrl, requireAuth }));
    const applications = new ApplicationsStore(db, now);
    // Processing and USPTO download queues, their workers and schedule; FIP sync.
    const q = options.queues ?? {};
    const jobs = new SqliteJobQueue(db, now);
    const workflows = mountWorkflows(app, { db, now, log, jobs, requireAuth });
    const queueSettings = new QueueSettings(db, now);
    const adapterSettings = () => queueSettings.uspto();
    const office = new PatentOffice(q.office ?? {}, adapterSettings, q.fetch);
    const runtime = new QueueRuntime({
      jobs,
      office,
      sink: q.portfolio ?? new ApplicationsSink(db, applications),
      settings: queueSettings,
      customerNumbers: q.customerNumbers ?? [],
      concurrency: q.concurrency ?? 0,
      now,
      log,
    });
    const queueDeps = { jobs, runtime, settings: queueSettings, office, requireAuth };
    app.route("/api/dispatcher", dispatcherRoutes(queueDeps));
    app.route("/api/uspto", usptoRoutes(queueDeps));
    const docket = new DocketSystem(q.docket ?? {}, adapterSettings, q.fetch);
    const fipSync = new FipSync(docket, new FipStore(db, now), now, log);
    app.route("/api/fip", fipRoutes({ store: new FipStore(db, now), sync: fipSync, docket, requireAuth }));
    runtime.start();
    // Office, PDF, e-mail and OCR converters: bounded child processes; OCR as jobs on the same queue.
    const converters = mountConverters(app, {
      jobs,
      files: new LocalFileStore(path.join(options.dataDir, "files")),
      requireAuth,
      log,
      options: options.converters,
    });
    if ((q.concurrency ?? 0) > 0) {
      fipSync.start(
        q.fipFeedMs ?? 5 * 60_000,
        () => queueSettings.read<string>("fip.watermark") ?? null,
        (since) => queueSettings.write("fip.watermark", since),
      );
    }
    // Messages, rules, reports, the e-mail connector and the applications page.
    app.route("/api/messages", messageRoutes({ messages: new MessagesStore(db, now), users, requireAuth }));
    app.route("/api/rules", ruleRoutes({ rules: new RulesStore(db, now), requireAuth }));
    app.route("/api/reports", reportRoutes({ reports: new ReportsStore(db, now), organizations, requireAuth }));
    const appSettings = new AppSettingsStore(db, now);
    app.route("/api/ms-graph-email-connector", emailConnectorRoutes({ settings: appSettings, requireAuth }));
    // Portfolio: search engine, applications, CSV import/export, reindex.
    const portfolioEngine = new SqliteSearchEngine(db);
    if (portfolioEngine.rankProblem) log(`upstream: search: ranking with FTS5's bm25 (slower on broad queries at scale): ${portfolioEngine.rankProblem}`);
    const portfolio = portfolioRoutes({ db, store: applications, engine: portfolioEngine, requireAuth, now, log });
    app.route("/api/search", portfolio.search);
    app.route("/api/applications", portfolio.applications);
    app.route("/api/portfolio", portfolio.portfolio);
    app.route("/api/patent-search", portfolio.vectors);
    const stopDemo = seedDemoInBackground(db, { count: options.portfolioDemo ?? 0, now, log });
    // Categorization: saved queries and the background jobs tagging the portfolio with them.
    const categorizationJobs = new JobsStore(db, now);
    const categorizationQueries = new QueriesStore(db, now);
    const categorizer = new CategorizationRunner({
      jobs: categorizationJobs,
      queries: categorizationQueries,
      engine: portfolioEngine,
      tagger: new Tagger(db, now),
      log,
    });
    const categorization = categorizationRoutes({ queries: categorizationQueries, jobs: categorizationJobs, runner: categorizer, requireAuth });
    app.route("/api/categorization/queries", categorization.queries);
    app.route("/api/categorization/jobs", categorization.jobs);
    app.route(
      "/api/application-crawler/installer",
      applicationCrawlerRoutes({ settings: appSettings, files: new LocalFileStore(path.join(options.dataDir, "files")), requireAuth }),
    );

    app.notFound((c) => c.json({ message: "Not found" }, 404));
    app.onError((error, c) => errorResponse(c, error, log));

    return {
      fetch: async (request, env) => app.fetch(request, env ?? {}),
      direct: directUpstream(async (request, env) => app.fetch(request, env)),
      health: () => !closed && dbHealth.report().ok,
      uploadRefusal: async (request) => {
        const answer = await gateOnly.fetch(request, {});
        return answer.status === 204 ? null : answer;
      },
      healthReport: () => (closed ? { ok: false, reason: "The upstream is closed." } : dbHealth.report()),
      seeded,
      close: () => {
        if (closed) return;
        closed = true;
        void chainRuns.stop();
        void chainCorpus.close();
        fipSync.stop();
        workflows.stop();
        void runtime.stop();
        void converters.stop();
        stopDemo();
        categorizer.stop();
        void portfolioEngine.close();
        db.close();
      },
    };
  } catch (error) {
    db.close();
    throw error;
  }
}
