/**
 * The opt-in demo and e2e data of the fake patent office and docket system (scripts/fake-offices.ts, e2e/peers).
 * Customer number 100001 has three applications; 16000404 exists nowhere (a 404); FIP:M-404 is not in the docket.
 */
import { startFakeDocket, type FakeMatter } from "../fip/fake-server";
import { startFakeOffice, type FakeApplication } from "./fake-server";

export const DEMO_KEYS = { office: "demo-uspto-key", docket: "demo-fip-key" } as const;
export const DEMO_CUSTOMER_NUMBERS = ["100001"];

const DEMO_APPLICATIONS: FakeApplication[] = [
  { applicationNumber: "16123456", title: "Self-cleaning widget", abstract: "A widget that cleans itself.", claims: ["1. A widget comprising a brush."], customerNumber: "100001", changedAt: "2026-01-10T00:00:00Z" },
  { applicationNumber: "16234567", title: "Folding ladder", abstract: "A ladder that folds.", claims: ["1. A ladder with a hinge."], customerNumber: "100001", changedAt: "2026-01-11T00:00:00Z" },
  { applicationNumber: "PCT/US24/012345", title: "Solar shingle", abstract: "A roof shingle producing power.", claims: ["1. A shingle with a cell."], customerNumber: "100001", changedAt: "2026-01-12T00:00:00Z" },
  { applicationNumber: "PCTUS2024054321", title: "Quiet fan", abstract: "A fan that is quiet.", claims: ["1. A fan with curved blades."], customerNumber: "200002" },
];

const DEMO_MATTERS: FakeMatter[] = [
  { fipId: "FIP:M-1001", matterNumber: "ACME-0001", auditDate: "2026-01-05", changedAt: "2026-01-05" },
  { fipId: "FIP:M-1002", matterNumber: "ACME-0002", auditDate: "2026-01-06", changedAt: "2026-01-06" },
];

export async function startDemoServers(ports: { office: number; docket: number }) {
  const office = await startFakeOffice({ port: ports.office, apiKey: DEMO_KEYS.office, applications: DEMO_APPLICATIONS });
  const docket = await startFakeDocket({ port: ports.docket, apiKey: DEMO_KEYS.docket, matters: DEMO_MATTERS });
  return { office, docket };
}
