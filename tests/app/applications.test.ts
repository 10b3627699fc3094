import { describe, expect, it } from "vitest";
import { APPLICATION_CRAWLER } from "~/application-crawler/texts";
import { appAsAdmin, uniq } from "../helpers/app";

const { app, admin } = appAsAdmin();
const DATA = "/applications?_data=routes%2F_app.applications";
const setup = (bytes: string, name = "CrawlerSetup-2.4.1.exe") => new File([bytes], name);
const errorsOf = async (res: Response) => ((await res.json()) as { errors: Record<string, string[]> }).errors;

async function signedIn(permissions: string[]) {
  const email = `apps-${uniq()}@test.local`;
  await app.createUser(email, permissions);
  const browser = app.browser();
  await browser.signIn(email, "secret-123");
  return browser;
}

describe("/applications", () => {
  it("says the installer is not available yet (no dead link); uploads, downloads, replaces and removes it", async () => {
    const empty = await (await admin.get("/applications")).text();
    expect(empty).toContain(APPLICATION_CRAWLER.crawler.title);
    expect(empty).toContain(APPLICATION_CRAWLER.crawler.notAvailable);
    expect(empty).not.toContain('href="/applications/installer"');
    expect((await admin.get("/applications/installer")).status).toBe(404);

    const missing = await admin.postMultipart(DATA, { intent: "upload", version: "2.4.1" });
    expect(missing.status).toBe(400);
    expect(await errorsOf(missing)).toEqual({ file: [APPLICATION_CRAWLER.validation.fileRequired] });
    const bad = await admin.postMultipart(DATA, { intent: "upload", version: "2.4 beta", file: setup("echo", "setup.sh") });
    expect(await errorsOf(bad)).toEqual({
      version: [APPLICATION_CRAWLER.validation.badVersion],
      file: [APPLICATION_CRAWLER.validation.wrongType],
    });
    const noVersion = await admin.postMultipart(DATA, { intent: "upload", version: " ", file: setup("MZ") });
    expect(await errorsOf(noVersion)).toEqual({ version: [APPLICATION_CRAWLER.validation.versionRequired] });

    const ok = await admin.postMultipart("/applications", { intent: "upload", version: "2.4.1", file: setup("MZ crawler setup") });
    expect(ok.status).toBe(302);
    const page = await (await admin.get("/applications")).text();
    expect(page).toContain(APPLICATION_CRAWLER.toasts.updated);
    expect(page).toContain('href="/applications/installer"');
    expect(page).toContain(APPLICATION_CRAWLER.crawler.download);
    expect(page).toContain(APPLICATION_CRAWLER.crawler.details("2.4.1", "16 bytes"));
    expect(page).toContain("CrawlerSetup-2.4.1.exe");
    expect(page).not.toContain(APPLICATION_CRAWLER.crawler.notAvailable);
    const download = await admin.get("/applications/installer");
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toContain('filename="CrawlerSetup-2.4.1.exe"');
    expect(download.headers.get("cache-control")).toBe("private, no-store");
    expect(await download.text()).toBe("MZ crawler setup");

    await admin.postMultipart("/applications", { intent: "upload", version: "2.5.0", file: setup("MZ 2.5", "Crawler.msi") });
    expect(await (await admin.get("/applications")).text()).toContain(APPLICATION_CRAWLER.crawler.details("2.5.0", "6 bytes"));
    expect(await (await admin.get("/applications/installer")).text()).toBe("MZ 2.5");

    const confirm = await admin.post(DATA, { intent: "delete" });
    expect(await confirm.json()).toEqual({ confirm: "delete" });
    expect((await admin.post("/applications", { intent: "delete", confirmed: "yes" })).status).toBe(302);
    const removed = await (await admin.get("/applications")).text();
    expect(removed).toContain(APPLICATION_CRAWLER.toasts.deleted);
    expect(removed).toContain(APPLICATION_CRAWLER.crawler.notAvailable);
    expect((await admin.get("/applications/installer")).status).toBe(404);
    const again = await admin.post("/applications", { intent: "delete", confirmed: "yes" });
    expect(again.status).toBe(404);
    expect(await again.text()).toContain(APPLICATION_CRAWLER.toasts.deleteFailed);
  });

  it("applications.read: the card and the download, no upload (a post is not found); without it, not found", async () => {
    const reader = await signedIn(["applications.read"]);
    const page = await (await reader.get("/applications")).text();
    expect(page).toContain(APPLICATION_CRAWLER.crawler.title);
    expect(page).not.toContain(APPLICATION_CRAWLER.upload.title);
    expect(page).not.toContain(APPLICATION_CRAWLER.upload.replaceTitle);
    const refused = await reader.postMultipart("/applications", { intent: "upload", version: "9.9", file: setup("MZ") });
    expect(refused.status).toBe(404);
    const nobody = await signedIn(["administration"]);
    expect((await nobody.get("/applications")).status).toBe(404);
    expect((await nobody.get("/applications/installer")).status).toBe(404);
  });
});
