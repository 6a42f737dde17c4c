// next-auth's own endpoints (sign-in, sign-out, session, CSRF token), behind a body limit.
import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { authOptions } from "@/lib/auth/auth-options";
import { problemFromError, problemResponse, RequestRefusal } from "@/lib/http/problem";
import { isJsonContentType, readBodyBytes } from "@/lib/http/request-body";

const nextAuth = NextAuth(authOptions);

// The sign-in and sign-out forms post a few hundred bytes.
const AUTH_MAX_BODY_BYTES = 8 * 1024;

type NextAuthContext = { params: Promise<{ nextauth: string[] }> };

function isFormContentType(header: string | null): boolean {
  return header?.split(";", 1)[0]!.trim().toLowerCase() === "application/x-www-form-urlencoded";
}

async function handler(request: NextRequest, context: NextAuthContext): Promise<Response> {
  const [action] = (await context.params).nextauth ?? [];
  // next-auth's relay of browser-side log lines: we do not use it, and it would let anyone write to the server log.
  if (action === "_log") return problemResponse(404, "Not found.");
  if (request.method !== "POST") return nextAuth(request, context);
  try {
    const json = isJsonContentType(request.headers.get("content-type"));
    if (!json && !isFormContentType(request.headers.get("content-type"))) {
      throw new RequestRefusal(415, "UNSUPPORTED_MEDIA_TYPE", "Send a form (application/x-www-form-urlencoded) or JSON body.");
    }
    const body = await readBodyBytes(request, AUTH_MAX_BODY_BYTES);
    // next-auth parses a JSON body itself and answers 500 when it cannot.
    if (json) parseJsonOrRefuse(body);
    return await nextAuth(new NextRequest(request.url, { method: "POST", headers: request.headers, body }), context);
  } catch (error) {
    return problemFromError(error);
  }
}

function parseJsonOrRefuse(body: Uint8Array): void {
  try {
    JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    throw new RequestRefusal(400, "INVALID_JSON", "The body is not valid JSON.");
  }
}

export { handler as GET, handler as POST };
