import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A tiny OpenID Connect provider for tests: discovery, an authorization endpoint that signs in whoever the test says
 * at once (no page), a token endpoint that checks the client secret and PKCE and returns an RS256 ID token, and the
 * JWKS to verify it. Enough for next-auth's openid-client to run the real code flow against it.
 */
export async function startTestOidcProvider(client: { clientId: string; clientSecret: string }) {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: "jwk" }), kid: "test-key", alg: "RS256", use: "sig" };
  const pending = new Map<string, { claims: Record<string, unknown>; challenge: string; nonce?: string; redirectUri: string }>();
  let nextClaims: Record<string, unknown> = {};
  const base64url = (value: Buffer | string) => Buffer.from(value).toString("base64url");

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", issuer);
    const json = (status: number, body: unknown) => response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (url.pathname === "/.well-known/openid-configuration") {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
        code_challenge_methods_supported: ["S256"],
      });
    }
    if (url.pathname === "/jwks") return json(200, { keys: [jwk] });
    if (url.pathname === "/authorize") {
      const redirectUri = url.searchParams.get("redirect_uri")!;
      if (url.searchParams.get("client_id") !== client.clientId) return json(400, { error: "unauthorized_client" });
      const code = randomBytes(16).toString("hex");
      pending.set(code, {
        claims: nextClaims,
        challenge: url.searchParams.get("code_challenge") ?? "",
        nonce: url.searchParams.get("nonce") ?? undefined,
        redirectUri,
      });
      const back = new URL(redirectUri);
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      return response.writeHead(302, { location: back.toString() }).end();
    }
    if (url.pathname === "/token" && request.method === "POST") {
      let body = "";
      for await (const chunk of request) body += chunk;
      const form = new URLSearchParams(body);
      const basic = Buffer.from((request.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString();
      const [id, secret] = basic ? basic.split(":").map(decodeURIComponent) : [form.get("client_id"), form.get("client_secret")];
      if (id !== client.clientId || secret !== client.clientSecret) return json(401, { error: "invalid_client" });
      const grant = pending.get(form.get("code") ?? "");
      pending.delete(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      if (!grant || grant.redirectUri !== form.get("redirect_uri") || base64url(createHash("sha256").update(verifier).digest()) !== grant.challenge)
        return json(400, { error: "invalid_grant" });
      const now = Math.floor(Date.now() / 1000);
      const payload = {
        iss: issuer,
        aud: client.clientId,
        iat: now,
        exp: now + 300,
        ...(grant.nonce ? { nonce: grant.nonce } : {}),
        ...grant.claims,
      };
      const signingInput = `${base64url(JSON.stringify({ alg: "RS256", typ: "JWT", kid: "test-key" }))}.${base64url(JSON.stringify(payload))}`;
      const idToken = `${signingInput}.${base64url(sign("sha256", Buffer.from(signingInput), privateKey))}`;
      return json(200, { access_token: randomBytes(16).toString("hex"), token_type: "Bearer", expires_in: 300, id_token: idToken });
    }
    json(404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    /** Who the next authorization signs in: the ID token's claims (sub, email, email_verified, groups, …). */
    signInNextAs(claims: Record<string, unknown>) {
      nextClaims = claims;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
