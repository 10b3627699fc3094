/**
 * Deterministic demo applications: realistic patent titles, abstracts, claims, specifications, AI
 * summaries, products and tags across the public portfolio and two organizations. Application number `i` is always
 * the same text for the same `i` (a seeded PRNG per row), so `--count 1000` then `--count 2000` adds rows 1000-1999.
 *
 * The vocabulary is built so that searches have every selectivity the bench needs at 1M rows: each application uses
 * two words of a 9,000-word "rare" technical vocabulary (~200 applications each: selective), belongs to one of 24
 * technical fields whose terms appear in 1k-50k applications each, and the claim boilerplate ("system", "method",
 * "plurality", "configured") appears in most (broad).
 */
import type { Db } from "../db";
import type { Product } from "../../contract/portfolio";
import type { ApplicationsStore, NewApplication } from "./store";

/** mulberry32: small, fast, deterministic. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
/** Zipf-like: low indexes much more often. */
const skewed = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(list.length * r() ** 2.2)]!;

export const FIELDS: readonly { name: string; terms: readonly string[]; objects: readonly string[]; tags: readonly string[] }[] = [
  { name: "wireless communication", terms: ["antenna", "beamforming", "transceiver", "spectrum", "handover", "uplink", "downlink", "baseband", "modulation", "carrier", "subframe", "mimo"], objects: ["base station", "user equipment", "radio link", "access point"], tags: ["wireless", "5g", "telecom"] },
  { name: "battery technology", terms: ["electrolyte", "cathode", "anode", "lithium", "separator", "electrode", "charging", "thermal", "cell", "capacity", "impedance", "solid-state"], objects: ["battery pack", "battery cell", "charging circuit", "energy storage module"], tags: ["battery", "energy-storage", "ev"] },
  { name: "medical devices", terms: ["catheter", "implant", "stent", "sensor", "patient", "infusion", "cardiac", "glucose", "biocompatible", "therapeutic", "diagnostic", "electrode"], objects: ["implantable device", "infusion pump", "monitoring system", "surgical instrument"], tags: ["medical", "med-device", "diagnostics"] },
  { name: "semiconductor manufacturing", terms: ["wafer", "lithography", "etching", "dielectric", "transistor", "substrate", "deposition", "gate", "trench", "photoresist", "annealing", "interconnect"], objects: ["semiconductor device", "wafer processing apparatus", "memory cell", "integrated circuit"], tags: ["semiconductor", "chips"] },
  { name: "autonomous vehicles", terms: ["lidar", "trajectory", "localization", "perception", "steering", "obstacle", "braking", "occupancy", "lane", "radar", "odometry", "planner"], objects: ["vehicle control system", "driver assistance system", "navigation module", "sensor fusion unit"], tags: ["automotive", "autonomous-driving", "adas"] },
  { name: "machine learning", terms: ["neural", "training", "inference", "embedding", "classifier", "gradient", "dataset", "transformer", "convolutional", "attention", "tensor", "model"], objects: ["neural network", "inference engine", "training pipeline", "recommendation system"], tags: ["ai", "machine-learning", "software"] },
  { name: "robotics", terms: ["manipulator", "gripper", "actuator", "joint", "end-effector", "servo", "kinematic", "torque", "payload", "calibration", "teleoperation", "workcell"], objects: ["robotic arm", "mobile robot", "gripping device", "robot controller"], tags: ["robotics", "automation"] },
  { name: "agricultural technology", terms: ["irrigation", "crop", "soil", "harvester", "seed", "fertilizer", "yield", "greenhouse", "livestock", "drone", "moisture", "planting"], objects: ["harvesting machine", "irrigation system", "crop monitoring device", "seeding apparatus"], tags: ["agritech", "farming"] },
  { name: "pharmaceutical formulation", terms: ["compound", "formulation", "dosage", "tablet", "excipient", "bioavailability", "crystalline", "salt", "inhibitor", "receptor", "administration", "polymorph"], objects: ["pharmaceutical composition", "oral dosage form", "drug delivery system", "injectable formulation"], tags: ["pharma", "biotech", "chemistry"] },
  { name: "display technology", terms: ["pixel", "oled", "backlight", "luminance", "panel", "touch", "polarizer", "subpixel", "brightness", "refresh", "microled", "bezel"], objects: ["display panel", "touch screen", "pixel circuit", "head-mounted display"], tags: ["display", "consumer-electronics"] },
  { name: "cloud computing", terms: ["container", "virtual", "cluster", "orchestration", "tenant", "latency", "replica", "scheduler", "storage", "workload", "serverless", "hypervisor"], objects: ["distributed computing system", "data center", "virtual machine manager", "storage cluster"], tags: ["cloud", "software", "data-center"] },
  { name: "cybersecurity", terms: ["encryption", "authentication", "key", "certificate", "malware", "intrusion", "firewall", "token", "signature", "credential", "anomaly", "sandbox"], objects: ["security gateway", "authentication server", "cryptographic module", "access control system"], tags: ["security", "software", "cryptography"] },
  { name: "renewable energy", terms: ["photovoltaic", "turbine", "inverter", "solar", "wind", "grid", "converter", "blade", "tracker", "microgrid", "hydrogen", "electrolyzer"], objects: ["solar panel", "wind turbine", "power converter", "energy management system"], tags: ["energy", "cleantech", "solar"] },
  { name: "optical networking", terms: ["fiber", "wavelength", "laser", "photodetector", "waveguide", "amplifier", "coherent", "multiplexer", "transponder", "dispersion", "optical", "modulator"], objects: ["optical transceiver", "fiber amplifier", "photonic chip", "optical switch"], tags: ["optics", "telecom", "photonics"] },
  { name: "additive manufacturing", terms: ["printing", "layer", "powder", "extrusion", "sintering", "nozzle", "filament", "resin", "build", "laser", "lattice", "slicing"], objects: ["three-dimensional printer", "print head", "powder bed system", "build platform"], tags: ["3d-printing", "manufacturing"] },
  { name: "payments and fintech", terms: ["transaction", "payment", "ledger", "merchant", "wallet", "blockchain", "settlement", "fraud", "account", "card", "tokenization", "clearing"], objects: ["payment terminal", "transaction processing system", "digital wallet", "ledger network"], tags: ["fintech", "payments", "software"] },
  { name: "audio processing", terms: ["microphone", "speaker", "acoustic", "noise", "echo", "equalizer", "codec", "beam", "loudspeaker", "headphone", "cancellation", "spatial"], objects: ["audio device", "hearing aid", "noise cancelling headset", "speaker array"], tags: ["audio", "consumer-electronics"] },
  { name: "imaging sensors", terms: ["image", "photodiode", "lens", "aperture", "exposure", "autofocus", "shutter", "infrared", "depth", "stabilization", "demosaicing", "hdr"], objects: ["image sensor", "camera module", "depth camera", "imaging system"], tags: ["imaging", "camera", "sensors"] },
  { name: "gene editing", terms: ["nucleic", "crispr", "guide", "sequence", "protein", "cas9", "genome", "vector", "cell", "antibody", "peptide", "expression"], objects: ["gene editing system", "viral vector", "antibody composition", "cell therapy"], tags: ["biotech", "genomics"] },
  { name: "logistics and warehousing", terms: ["parcel", "conveyor", "inventory", "picking", "pallet", "sorting", "shipment", "barcode", "forklift", "routing", "fulfillment", "locker"], objects: ["sorting system", "inventory robot", "package locker", "conveyor assembly"], tags: ["logistics", "automation"] },
  { name: "aerospace", terms: ["fuselage", "wing", "propulsion", "rotor", "satellite", "airframe", "thrust", "avionics", "orbit", "landing", "nacelle", "composite"], objects: ["aircraft", "unmanned aerial vehicle", "satellite system", "propulsion unit"], tags: ["aerospace", "drones"] },
  { name: "food processing", terms: ["beverage", "fermentation", "packaging", "dairy", "emulsion", "flavor", "extraction", "pasteurization", "protein", "capsule", "brewing", "roasting"], objects: ["beverage dispenser", "food packaging", "brewing apparatus", "processing line"], tags: ["food", "consumer-goods"] },
  { name: "smart home", terms: ["thermostat", "appliance", "voice", "assistant", "occupancy", "lighting", "hub", "doorbell", "lock", "scene", "zigbee", "automation"], objects: ["home automation hub", "smart thermostat", "connected appliance", "smart lock"], tags: ["iot", "smart-home", "consumer-electronics"] },
  { name: "oil and gas", terms: ["wellbore", "drilling", "casing", "reservoir", "pipeline", "valve", "downhole", "fracturing", "mud", "completion", "seismic", "packer"], objects: ["drilling assembly", "downhole tool", "pipeline monitoring system", "valve assembly"], tags: ["energy", "oil-gas"] },
];

const GENERAL_TAGS = ["priority", "licensing-candidate", "litigation", "prior-art", "core-portfolio", "divest", "standard-essential", "watch", "competitor-overlap", "expiring", "review-2025", "high-value"];

const PREFIXES = ["thermo", "electro", "magneto", "photo", "hydro", "piezo", "nano", "micro", "cryo", "opto", "bio", "aero", "geo", "chrono", "sono", "tribo", "ferro", "iono", "plasmo", "spectro", "quanto", "gyro", "radio", "baro", "hygro", "lumino", "vibro", "haptic", "cyto", "neuro"];
const ROOTS = ["lumin", "flux", "cap", "morph", "gal", "tens", "vect", "phas", "strat", "cell", "fil", "grad", "plex", "sorb", "duct", "trop", "graph", "stat", "kin", "sist", "lyt", "mer", "pol", "cond", "trac", "volt", "therm", "derm", "chrom", "path"];
const SUFFIXES = ["ide", "ance", "ator", "ene", "ite", "ium", "ometer", "ase", "ode", "ion"];
/** 9,000 rare technical words: prefix × root × suffix. */
const RARE = PREFIXES.flatMap((p) => ROOTS.flatMap((r) => SUFFIXES.map((s) => p + r + s)));

const TITLE_HEADS = ["Method", "System", "Apparatus", "Device", "Method and system", "Systems and methods", "Assembly", "Composition"];
const ACTIONS = ["controlling", "detecting", "estimating", "manufacturing", "operating", "calibrating", "monitoring", "optimizing", "managing", "encoding", "cooling", "aligning"];
const QUALIFIERS = ["with reduced power consumption", "using adaptive thresholds", "in a distributed environment", "based on sensor data", "with improved reliability", "for high-throughput operation", "having a modular architecture", "under variable load", "with self-calibration", "at low temperature"];
const COMMON = ["system", "method", "device", "plurality", "configured", "wherein", "comprising", "controller", "signal", "data", "unit", "module", "processor", "memory", "first", "second", "value", "least", "based", "determining"];
const COMPANIES = ["Acme Corporation", "Globex Industries", "Initech Systems", "Umbrella Technologies", "Stark Manufacturing", "Wayne Enterprises", "Tyrell Labs", "Cyberdyne Systems", "Soylent Foods", "Hooli", "Vandelay Industries", "Massive Dynamic", "Aperture Science", "Oscorp", "Wonka Industries", "Nakatomi Trading"];
const PARENTS = ["Acme Holdings", "Globex Group", "Initrode Holdings", "Umbrella Group", "Stark Holdings", "Wayne Holdings"];
const ASSESSMENTS = ["High similarity: the product implements every element of claim 1.", "Medium similarity: the product practices most elements of the independent claims.", "Low similarity: only the general architecture overlaps.", "Needs review: public documentation is incomplete."];

function sentence(r: () => number, field: (typeof FIELDS)[number], rare: readonly string[], words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    const x = r();
    if (x < 0.35) out.push(pick(r, field.terms));
    else if (x < 0.7) out.push(pick(r, COMMON));
    else if (x < 0.75) out.push(pick(r, rare));
    else if (x < 0.85) out.push(pick(r, field.objects));
    else out.push(pick(r, ["the", "a", "of", "to", "and", "in", "for", "by", "with", "on"]));
  }
  const text = out.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1) + ".";
}

/** The portfolio ids of the demo: 'public' (about 60%) and two organizations (20% each). */
function portfolioFor(i: number, organizations: readonly string[]): string {
  const slot = i % 5;
  if (slot < 3 || organizations.length === 0) return "public";
  return organizations[(slot - 3) % organizations.length]!;
}

/** Application number `i` (0-based) of the demo. Same `i`, same application. */
function demoApplication(i: number, organizations: readonly string[]): NewApplication {
  const r = prng(i * 2654435761 + 12345);
  const field = skewed(r, FIELDS);
  const rare = [pick(r, RARE), pick(r, RARE)];
  const object = pick(r, field.objects);
  const title = `${pick(r, TITLE_HEADS)} for ${pick(r, ACTIONS)} a ${object} ${pick(r, QUALIFIERS)}`;
  const abstract = [sentence(r, field, rare, 14), `A ${object} includes a ${pick(r, field.terms)} ${rare[0]} and a ${pick(r, field.terms)} controller.`, sentence(r, field, rare, 18)].join(" ");
  const claims = [
    `1. A ${object} comprising: a ${pick(r, field.terms)} unit; a processor configured to determine a ${pick(r, field.terms)} value based on a first signal; and a memory storing a plurality of ${pick(r, field.terms)} parameters.`,
    `2. The ${object} of claim 1, wherein the ${rare[1]} is configured to ${pick(r, ACTIONS).replace(/ing$/, "e")} the ${pick(r, field.terms)}.`,
    `3. A method of ${pick(r, ACTIONS)} a ${object}, comprising: receiving data from a ${pick(r, field.terms)} sensor; and determining at least one ${pick(r, field.terms)} parameter.`,
  ].join("\n");
  const specification = [
    `FIELD. The present disclosure relates to ${field.name}, and more particularly to a ${object}.`,
    `BACKGROUND. ${sentence(r, field, rare, 22)}`,
    `DETAILED DESCRIPTION. ${sentence(r, field, rare, 30)} ${sentence(r, field, rare, 20)}`,
  ].join("\n");
  const aiSummary = `<p>The invention is a <strong>${object}</strong> in ${field.name}.</p><ul><li>Key element: ${pick(r, field.terms)} ${rare[0]}</li><li>Benefit: ${pick(r, QUALIFIERS)}</li></ul>`;
  const productCount = Math.floor(r() * 3);
  const products: Product[] = [];
  for (let p = 0; p < productCount; p++) {
    const company = pick(r, COMPANIES);
    products.push({
      name: `${company.split(" ")[0]} ${pick(r, field.terms).replace(/^\w/, (c) => c.toUpperCase())} ${100 + Math.floor(r() * 900)}`,
      company,
      score: Math.round(r() * 100) / 100,
      similarityAssessment: pick(r, ASSESSMENTS),
      summary: `A commercial ${object} marketed for ${field.name}.`,
      ultimateParentCompany: pick(r, PARENTS),
      source: Math.floor(r() * 3),
      isInternal: r() < 0.15,
      isCompetitor: r() < 0.4,
    });
  }
  const tagNames = new Set<string>();
  const tagCount = Math.floor(r() * 4);
  for (let t = 0; t < tagCount; t++) tagNames.add(r() < 0.6 ? pick(r, field.tags) : skewed(r, GENERAL_TAGS));
  const year = 2005 + Math.floor(r() * 20);
  const number = `US${year}${String(i).padStart(7, "0")}A1`;
  return {
    id: number,
    source: { id: `${year}/${String(100000 + (i % 900000))}` },
    title,
    abstract,
    claims,
    specification,
    aiSummary,
    products,
    broadScore: Math.round(r() * 1000) / 10,
    detectableScore: Math.round(r() * 1000) / 10,
    tags: [...tagNames].map((name) => ({ name, score: Math.round(r() * 100) / 100 })),
    portfolioId: portfolioFor(i, organizations),
  };
}

/** The two demo organizations (created when there are fewer than two organizations). */
const DEMO_ORGANIZATIONS = ["Northwind Patents", "Contoso IP"] as const;

/** Two organization ids for the demo: the first two by name, creating the demo ones when missing. */
export function demoOrganizations(db: Db, now: () => number): string[] {
  const existing = db.prepare("select id from organizations order by lower(name), id limit 2").all() as { id: string }[];
  const ids = existing.map((o) => o.id);
  const at = new Date(now()).toISOString();
  for (const name of DEMO_ORGANIZATIONS) {
    if (ids.length >= 2) break;
    const id = `demo-${name.toLowerCase().replace(/\W+/g, "-")}`;
    db.prepare(
      "insert or ignore into organizations (id, name, data, created_at, created_by, updated_at, updated_by) values (?, ?, '{}', ?, null, ?, null)",
    ).run(id, name, at, at);
    ids.push(id);
  }
  return ids;
}

/**
 * Inserts demo applications `from` … `to - 1` (ids that exist are skipped), `batch` per transaction. Timestamps
 * spread over the ten years before `now`, deterministic too. Returns how many were inserted.
 */
export function seedBatch(db: Db, store: ApplicationsStore, organizations: readonly string[], from: number, to: number, now: number): number {
  let inserted = 0;
  const exists = db.prepare("select 1 from applications where id = ?");
  db.transaction(() => {
    for (let i = from; i < to; i++) {
      const app = demoApplication(i, organizations);
      if (exists.get(app.id)) continue;
      const at = new Date(now - ((i * 7919) % 3650) * 86_400_000).toISOString();
      // The generator's HTML is ours (no sanitizing needed): seeding a million rows stays fast.
      store.insert(app, { createdAt: at, updatedAt: at, createdBy: null, updatedBy: null }, { trustedHtml: true });
      inserted++;
    }
  })();
  return inserted;
}
