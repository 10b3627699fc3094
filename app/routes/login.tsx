import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { SIGN_IN, SSO_TEXTS } from "~/auth/texts";
import { listProviders } from "~/auth/sso.server";
import { useAdoptEarlyInput, useHydrated } from "~/ui/hydrated";
import { readSession, safeRedirect } from "~/auth/session.server";
import { signIn } from "~/auth/signin.server";

export const meta: MetaFunction = () => [{ title: "Sign in · Backoffice" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { identity } = await readSession(request, context);
  if (identity) throw redirect(safeRedirect(new URL(request.url).searchParams.get("redirectTo")));
  // Each external button shows only when the upstream lists its provider (spec 1 §2): first the corporate OpenID
  // Connect provider, then SAML ("Sign in with OKTA").
  const providers = await listProviders(context);
  return json({
    oidc: providers.find((p) => p.type === "oidc")?.label ?? null,
    saml: providers.some((p) => p.type === "saml") ? SSO_TEXTS.samlLabel : null,
  });
}

/** The local form: the remix-auth form strategy, then the session cookie (app/auth/signin.server.ts). */
export const action = (args: ActionFunctionArgs) => signIn(args);

export default function SignIn() {
  const result = useActionData<typeof action>();
  const providers = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const [email, setEmail] = useState(result?.email ?? "");
  const [password, setPassword] = useState("");
  const passwordRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  useAdoptEarlyInput(emailRef, email, setEmail);
  useAdoptEarlyInput(passwordRef, password, setPassword);
  const failed = Boolean(result?.message);
  // After a failed sign-in the password is cleared and focused (the email is kept): without JavaScript the server
  // renders it empty with autofocus; with it, this.
  useEffect(() => {
    if (!result?.message) return;
    setPassword("");
    passwordRef.current?.focus();
  }, [result]);
  const pending = navigation.state !== "idle" && navigation.formAction === "/login";
  const hydrated = useHydrated();
  // Submits only when both are filled (spec 1 §5): with JavaScript the button waits for both; without it, the
  // inputs' `required` stops the browser, and the server answers the same failure text.
  const ready = !hydrated || (email.trim() !== "" && password !== "");

  return (
    <main className="signin">
      <div className="signin-card">
        <p className="brand signin-brand">Backoffice</p>
        <h1>{SIGN_IN.greeting}</h1>
        <Form method="post" className="stack" aria-describedby={result?.message ? "signin-error" : undefined}>
          <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? "/"} />
          <div className="field">
            <label htmlFor="email">Email</label>
            <input
              ref={emailRef}
              id="email"
              name="email"
              type="email"
              autoComplete="username"
              required
              autoFocus={!failed}
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              aria-invalid={result?.message ? true : undefined}
            />
          </div>
          <div className="field">
            <label htmlFor="password">Password</label>
            <input
              ref={passwordRef}
              id="password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              autoFocus={failed}
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              aria-invalid={result?.message ? true : undefined}
            />
          </div>
          {result?.message ? (
            <p id="signin-error" className="form-error" role="alert">
              {result.message}
            </p>
          ) : null}
          <button type="submit" className="btn btn-primary btn-block" disabled={pending || !ready}>
            {pending ? "Signing in…" : SIGN_IN.submit}
          </button>
        </Form>
        {providers.oidc || providers.saml ? (
          <div className="signin-external">
            <p className="signin-or">{SSO_TEXTS.or}</p>
            {/* Whole-document posts: the answer is a redirect to the identity provider. */}
            {providers.oidc ? (
              <Form method="post" action="/auth/microsoft" reloadDocument>
                <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? "/"} />
                <button type="submit" className="btn btn-secondary btn-block">
                  {providers.oidc}
                </button>
              </Form>
            ) : null}
            {providers.saml ? (
              <Form method="post" action="/auth/saml/login" reloadDocument>
                <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? "/"} />
                <button type="submit" className="btn btn-secondary btn-block">
                  {providers.saml}
                </button>
              </Form>
            ) : null}
          </div>
        ) : null}
      </div>
    </main>
  );
}
