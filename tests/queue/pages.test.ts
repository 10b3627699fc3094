/** The dashboards' routes through the built Remix app (no JavaScript): permissions, actions, validation, prefs. */
import { describe, expect, it } from "vitest";
import type { QueueCollection, UsptoConfig } from "@contract/queues";
import { appAsAdmin } from "../helpers/app";

const { app, admin } = appAsAdmin();

describe("write permissions (spec 2 §6), on the server", () => {
  it("a reader sees the dashboards without write controls, and their posts are refused", async () => {
    await app.createUser("queue-reader@test.local", ["portfolio.read", "uspto.read", "docketing_tasks.read"]);
    const reader = app.browser();
    await reader.signIn("queue-reader@test.local", "secret-123");
    const page = await (await reader.get("/processing")).text();
    expect(page).toContain("Processing dashboard");
    expect(page).not.toContain(">Pause<");
    expect(page).not.toContain("Applications to schedule");
    for (const [url, fields] of [
      ["/processing", { intent: "pause" }],
      ["/processing", { intent: "schedule", text: "16123456" }],
      ["/uspto", { intent: "sync", confirmed: "yes" }],
      ["/uspto/configuration", { intent: "timeout", timeout: "60000" }],
      ["/fip", { intent: "delete", id: "x" }],
    ] as const) {
      expect((await reader.post(url, fields)).status, url).toBe(404);
    }
    await app.createUser("queue-nobody@test.local", ["users.read"]);
    const nobody = app.browser();
    await nobody.signIn("queue-nobody@test.local", "secret-123");
    for (const url of ["/processing", "/uspto", "/uspto/configuration", "/fip"]) expect((await nobody.get(url)).status).toBe(404);
  });
});

describe("processing and USPTO actions without JavaScript", () => {
  it("shows the ids found, refuses a schedule without any, schedules, and says what is not configured", async () => {
    let res = await admin.post("/processing", { intent: "preview", text: "x 16123456 and PCTUS2024012345, 16123456" });
    let html = await res.text();
    expect(html).toContain("2 application ids found:");
    expect(html).toContain("PCTUS2024012345");
    res = await admin.post("/processing", { intent: "schedule", text: "nothing here" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("No application id found yet.");
    res = await admin.post("/processing", { intent: "schedule", text: "16123456 16234567" });
    expect(res.status).toBe(302);
    const list = (await (await app.adminApi("GET", "/api/dispatcher/?status=queued")).json()) as QueueCollection;
    expect(list.data.map((j) => j.id).sort()).toEqual(["16123456", "16234567"]);
    html = await (await admin.get("/processing")).text();
    expect(html).toContain("USPTO_API_URL is not set");
    expect(html).toContain("Refresh");
    expect(html).toContain("Data read at");
  });

  it("asks before syncing; the sync fails naming the missing setting", async () => {
    let res = await admin.post("/uspto", { intent: "sync" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Sync with the patent office?");
    res = await admin.post("/uspto", { intent: "sync", confirmed: "yes" });
    expect(res.status).toBe(302);
    const html = await (await admin.get(res.headers.get("location")!)).text();
    expect(html).toContain("Failed to sync applications. Please try later...");
    expect(html).toContain("USPTO_API_URL is not set");
  });

  it("remembers filters and sort in the prefs cookie", async () => {
    await admin.get("/uspto?filtered=1&status=completed&unmatched=1&sort=priority");
    const html = await (await admin.get("/uspto")).text();
    expect(html).toContain('name="status" checked="" value="completed"');
    expect(html).toContain('name="status" value="inprogress"/>');
    expect(html).toContain('name="unmatched" checked="" value="1"');
    expect(html).toContain('<option value="priority" selected="">');
  });
});

describe("USPTO configuration without JavaScript", () => {
  const config = async () => (await (await app.adminApi("GET", "/api/uspto/config")).json()) as UsptoConfig;

  it("validates with the spec's messages and saves minutes, intervals and delays", async () => {
    let res = await admin.post("/uspto/configuration", { intent: "schedule", schedule: "* *" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Cron expression must have at least 5 fields");
    res = await admin.post("/uspto/configuration", { intent: "schedule", schedule: "" });
    expect(await res.text()).toContain("Please enter a valid cron expression");
    res = await admin.post("/uspto/configuration", { intent: "schedule-build", "cron-minute": "30", "cron-hour": "25" });
    expect(await res.text()).toContain("Invalid hour: 25");
    res = await admin.post("/uspto/configuration", { intent: "schedule-build", "cron-minute": "30", "cron-hour": "2" });
    expect(res.status).toBe(302);
    expect((await config()).schedule.current).toBe("30 2 * * *");
    res = await admin.post("/uspto/configuration", { intent: "timeout", timeout: "" });
    expect(await res.text()).toContain("Please enter a valid timeout value");
    expect((await admin.post("/uspto/configuration", { intent: "timeout", timeout: "150000" })).status).toBe(302);
    expect((await config()).requestTimeout.current).toBe(180_000); // 2.5 min rounds to 3
    res = await admin.post("/uspto/configuration", { intent: "delay", delay: "" });
    expect(await res.text()).toContain("Please enter a valid delay value");
    res = await admin.post("/uspto/configuration", { intent: "repeat", repeat: "5" });
    expect(await res.text()).toContain("Add time unit: d (days), h (hours), m (minutes), s (seconds)");
    res = await admin.post("/uspto/configuration", { intent: "repeat", repeat: "five" });
    expect(await res.text()).toContain("Invalid format. Use: 1d 2h 30m 15s");
    expect((await admin.post("/uspto/configuration", { intent: "repeat-build", "repeat-h": "2", "repeat-m": "99" })).status).toBe(302);
    expect((await config()).downloadRepeat.current).toBe(2 * 3_600_000 + 59 * 60_000);
    expect((await admin.post("/uspto/configuration", { intent: "delay", delay: "", "delay-preset": "0" })).status).toBe(302);
    const html = await (await admin.get("/uspto/configuration")).text();
    expect(html).toContain("Current: No delay");
    expect(html).toContain("Current: 2h 59m");
  });
});
