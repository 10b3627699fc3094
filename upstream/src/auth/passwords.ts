import crypto from "node:crypto";

/**
 * scrypt cost for new hashes: N=2^14, r=8, p=1 (16 MiB, Node's default). Each hash stores its own parameters, so raising
 * N later keeps old hashes verifiable.
 */
const N = 1 << 14;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

function maxmem(n: number, r: number, p: number): number {
  return 128 * n * r * p + 1024 * 1024;
}

function scrypt(password: string, salt: Buffer, n: number, r: number, p: number, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    crypto.scrypt(password, salt, length, { N: n, r, p, maxmem: maxmem(n, r, p) }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

function format(salt: Buffer, hash: Buffer, n = N, r = R, p = P): string {
  return `scrypt$${n}$${r}$${p}$${salt.toString("base64")}$${hash.toString("base64")}`;
}

/** Hashes a password as `scrypt$N$r$p$<salt base64>$<hash base64>` with a random 16-byte salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(SALT_BYTES);
  return format(salt, await scrypt(password, salt, N, R, P, KEY_LENGTH));
}

/** Same as `hashPassword`, blocking; for start-up (seeding the administrator). */
export function hashPasswordSync(password: string): string {
  const salt = crypto.randomBytes(SALT_BYTES);
  return format(salt, crypto.scryptSync(password, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: maxmem(N, R, P) }));
}

type Parsed = { n: number; r: number; p: number; salt: Buffer; hash: Buffer };

function parse(stored: string): Parsed | null {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return null;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4] ?? "", "base64");
  const hash = Buffer.from(parts[5] ?? "", "base64");
  // Bounds keep a corrupted row from asking scrypt for gigabytes.
  if (!n || !r || !p || n > 1 << 20 || r > 32 || p > 16 || (n & (n - 1)) !== 0) return null;
  if (!salt.length || hash.length < 16 || hash.length > 128) return null;
  return { n, r, p, salt, hash };
}

/** How long the latest password checks took (ms, a moving average): what `verifyDelay` waits. */
let verifyMs = 50;

/** True when `password` matches `stored` (constant-time comparison). False for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const started = performance.now();
  const candidate = await scrypt(password, parsed.salt, parsed.n, parsed.r, parsed.p, parsed.hash.length);
  verifyMs = 0.8 * verifyMs + 0.2 * (performance.now() - started);
  return crypto.timingSafeEqual(candidate, parsed.hash);
}

/**
 * Waits about as long as a password check takes, without doing one: for a refusal whose reason depends on whether
 * the email exists (so its time does not tell), and which must not cost a check's CPU and memory.
 */
export function verifyDelay(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, verifyMs));
}

let dummy: string | null = null;
/**
 * Spends the same time as checking a real password, for sign-ins with an unknown email (so the answer time does not
 * tell which emails exist). Always false.
 */
export async function verifyNothing(password: string): Promise<false> {
  dummy ??= await hashPassword(crypto.randomBytes(12).toString("hex"));
  await verifyPassword(password, dummy);
  return false;
}

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
/** A random password of `length` characters from an unambiguous alphanumeric alphabet. */
export function randomPassword(length = 16): string {
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[crypto.randomInt(ALPHABET.length)];
  return out;
}
