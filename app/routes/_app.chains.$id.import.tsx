import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { IMPORT_MAX_CHARS } from "~/chains/toolbar/import-limit";
import { importAction, importLoader, type ImportReply } from "~/chains/toolbar/transfer.server";
import chainVersionsStyles from "~/chains/versions/versions.css";
import { CHAIN_VERSIONS as V } from "~/chains/versions/texts";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

/** /chains/{id}/import: paste a template's JSON into the chain's draft (spec 3 §2.9 import, §8), prompts.write only. */
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.chain.name ?? "Chain"} · Import · Backoffice` }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: chainVersionsStyles }];

export const loader = (args: LoaderFunctionArgs) => importLoader(args);
export const action = (args: ActionFunctionArgs) => importAction(args);

export default function ChainImport() {
  const { chain } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as (ImportReply & { toast?: unknown }) | undefined;
  const back = `/chains/${encodeURIComponent(chain.id)}`;
  return (
    <div className="chain-export stack">
      <Toast toast={toastOf(reply)} />
      <p className="back-link">
        <Link to={back}>{V.back}</Link>
      </p>
      <h1>{`${chain.name} · ${V.importTitle}`}</h1>
      {reply ? (
        <div className="form-error" role="alert" id="chain-import-errors">
          {reply.messages.length ? (
            <ul>
              {reply.messages.map((m, i) => (
                <li key={i}>
                  <strong>{reply.title}</strong>: {m}
                </li>
              ))}
            </ul>
          ) : (
            <p>{reply.title}</p>
          )}
        </div>
      ) : null}
      <Form method="post" className="stack">
        <div className="field">
          <label htmlFor="chain-import-json">{V.importLabel}</label>
          <p className="field-hint" id="chain-import-hint">
            {V.importHint}
          </p>
          <textarea
            id="chain-import-json"
            name="template"
            rows={16}
            required
            maxLength={IMPORT_MAX_CHARS}
            spellCheck={false}
            className="code"
            defaultValue={reply?.typed ?? ""}
            aria-describedby={reply ? "chain-import-hint chain-import-errors" : "chain-import-hint"}
            aria-invalid={reply ? true : undefined}
          />
        </div>
        <div className="chain-toolbar">
          <button type="submit" className="btn btn-primary">
            {V.importSubmit}
          </button>
          <Link to={back} className="btn btn-secondary">
            {V.back}
          </Link>
        </div>
      </Form>
    </div>
  );
}
