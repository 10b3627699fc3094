import { afterEach, describe, expect, it } from "vitest";
import { DocketSystem, externalMatterId } from "../../upstream/src/fip/adapter";
import { startFakeDocket, type FakeDocket } from "../../upstream/src/fip/fake-server";
import { OFFICE_MESSAGES, PatentOffice } from "../../upstream/src/patent-office/adapter";
import { startFakeOffice, type FakeOffice } from "../../upstream/src/patent-office/fake-server";
import { PermanentJobError } from "../../upstream/src/queue/worker";

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});

async function office(): Promise<FakeOffice> {
  const fake = await startFakeOffice({
    applications: [
      { applicationNumber: "16123456", title: "Widget", abstract: "A widget.", claims: ["1. A widget.", "2. The widget of 1."], customerNumber: "100", changedAt: "2026-02-01T00:00:00Z" },
      { applicationNumber: "PCT/US24/012345", title: "Gadget", customerNumber: "100", changedAt: "2026-03-01T00:00:00Z" },
      { applicationNumber: "17000001", title: "Other firm", customerNumber: "999" },
    ],
  });
  servers.push(fake);
  return fake;
}

const settings = { requestTimeoutMs: 300, tooManyRequestsDelayMs: 50 };

describe("PatentOffice adapter against the fake office", () => {
  it("reads an application, searches by customer number and change date", async () => {
    const fake = await office();
    const po = new PatentOffice({ baseUrl: fake.url, apiKey: fake.apiKey }, () => settings);
    expect(await po.getApplication("16123456")).toEqual({
      applicationNumber: "16123456",
      title: "Widget",
      abstract: "A widget.",
      claims: "1. A widget.\n\n2. The widget of 1.",
      customerNumber: "100",
      changedAt: "2026-02-01T00:00:00Z",
    });
    expect((await po.getApplication("PCT/US24/012345")).title).toBe("Gadget");
    expect((await po.searchByCustomer("100", null)).map((a) => a.applicationNumber)).toEqual(["16123456", "PCT/US24/012345"]);
    expect((await po.searchByCustomer("100", "2026-02-15T00:00:00Z")).map((a) => a.title)).toEqual(["Gadget"]);
    expect(await po.searchByCustomer("555", null)).toEqual([]);
  });

  it("names the missing setting; 404 is permanent; a wrong key is an error", async () => {
    const fake = await office();
    await expect(new PatentOffice({ apiKey: "k" }, () => settings).getApplication("1")).rejects.toThrow(OFFICE_MESSAGES.missingUrl);
    await expect(new PatentOffice({ baseUrl: fake.url }, () => settings).getApplication("1")).rejects.toThrow("USPTO_API_KEY");
    const po = new PatentOffice({ baseUrl: fake.url, apiKey: fake.apiKey }, () => settings);
    const missing = await po.getApplication("99999999").catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(PermanentJobError);
    expect((missing as Error).message).toBe(OFFICE_MESSAGES.notFound("99999999"));
    await expect(new PatentOffice({ baseUrl: fake.url, apiKey: "wrong" }, () => settings).getApplication("16123456")).rejects.toThrow("answered 403");
  });

  it("waits tooManyRequestsDelay after a 429 and retries; gives up after 3 retries", async () => {
    const fake = await office();
    const po = new PatentOffice({ baseUrl: fake.url, apiKey: fake.apiKey }, () => settings);
    fake.tooMany(2);
    const t = Date.now();
    expect((await po.getApplication("16123456")).title).toBe("Widget");
    expect(Date.now() - t).toBeGreaterThanOrEqual(95); // two waits of 50 ms
    fake.tooMany(10);
    await expect(po.getApplication("16123456")).rejects.toThrow(OFFICE_MESSAGES.tooMany);
  });

  it("aborts a request after requestTimeout", async () => {
    const fake = await office();
    fake.slow(1000);
    const po = new PatentOffice({ baseUrl: fake.url, apiKey: fake.apiKey }, () => ({ ...settings, requestTimeoutMs: 100 }));
    const t = Date.now();
    await expect(po.getApplication("16123456")).rejects.toThrow(OFFICE_MESSAGES.timeout(100));
    expect(Date.now() - t).toBeLessThan(800);
  });

  it("says when the office cannot be reached", async () => {
    const fake = await office();
    const url = fake.url;
    await servers.pop()!.close();
    await expect(new PatentOffice({ baseUrl: url, apiKey: "k" }, () => settings).getApplication("1")).rejects.toThrow("could not be reached");
  });
});

describe("DocketSystem adapter against the fake docket", () => {
  async function docket(): Promise<FakeDocket> {
    const fake = await startFakeDocket({ matters: [{ fipId: "FIP:M-1", matterNumber: "ACME-001", auditDate: "2026-01-02", changedAt: "2026-01-02" }] });
    servers.push(fake);
    return fake;
  }

  it("extracts the external id after the colon", () => {
    expect(externalMatterId("FIP:M-1")).toBe("M-1");
    expect(externalMatterId("nocolon")).toBeNull();
    expect(externalMatterId("FIP:")).toBeNull();
  });

  it("re-fetches a matter with no-cache; 404 permanent; 429 waits; time-out; feed", async () => {
    const fake = await docket();
    const ds = new DocketSystem({ baseUrl: fake.url, apiKey: fake.apiKey, matterUrlTemplate: "https://fip.example/matters/{id}" }, () => settings);
    expect(await ds.getMatter("FIP:M-1")).toEqual({ fipId: "FIP:M-1", matterNumber: "ACME-001", auditDate: "2026-01-02" });
    expect(ds.matterUrl("FIP:M-1")).toBe("https://fip.example/matters/M-1");
    await expect(ds.getMatter("FIP:nope")).rejects.toBeInstanceOf(PermanentJobError);
    fake.tooMany(1);
    expect((await ds.getMatter("FIP:M-1")).matterNumber).toBe("ACME-001");
    expect(await ds.changedMatters(null)).toEqual(["FIP:M-1"]);
    expect(await ds.changedMatters("2027-01-01")).toEqual([]);
    fake.slow(1000);
    await expect(ds.getMatter("FIP:M-1")).rejects.toThrow("did not answer within 300 ms");
    await expect(new DocketSystem({}, () => settings).getMatter("FIP:M-1")).rejects.toThrow("FIP_API_URL is not set");
  });
});
