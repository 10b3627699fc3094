import { describe, expect, it } from "vitest";
import type { TokenPayload } from "@contract";
import { cachedVerifier, signToken } from "../../upstream/src/auth/tokens";

const SECRET = "token-cache-secret";
const payload = (sub: string, exp: number): TokenPayload => ({
  iss: "test", sub, email: `${sub}@test.local`, firstName: "", lastName: "", permissions: [], sid: `s-${sub}`, iat: 0, exp,
});

describe("cachedVerifier (one signature check per token, not per call)", () => {
  it("answers the payload of a valid token, and nothing for a forged or foreign one", () => {
    const verify = cachedVerifier(SECRET, "test", () => 100);
    const token = signToken(payload("a", 200), SECRET);
    expect(verify(token)?.sub).toBe("a");
    expect(verify(token)?.sub).toBe("a");
    expect(verify(`${token.slice(0, -2)}xx`)).toBeNull();
    expect(verify(signToken(payload("b", 200), "another-secret"))).toBeNull();
  });

  it("still checks expiry on every use of a remembered token", () => {
    let now = 100;
    const verify = cachedVerifier(SECRET, "test", () => now);
    const token = signToken(payload("a", 150), SECRET);
    expect(verify(token)).not.toBeNull();
    now = 150;
    expect(verify(token)).toBeNull();
  });

  it("remembers at most `size` tokens (memory stays bounded)", () => {
    const verify = cachedVerifier(SECRET, "test", () => 100, 3);
    const tokens = ["a", "b", "c", "d"].map((s) => signToken(payload(s, 200), SECRET));
    for (const t of tokens) expect(verify(t)).not.toBeNull();
    expect(verify.remembered()).toBe(3);
    // All still verify (a forgotten one is simply checked again).
    for (const t of tokens) expect(verify(t)).not.toBeNull();
    expect(verify.remembered()).toBe(3);
  });
});
