import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireRoute } from "~/auth/guard.server";
import { chainHistory, chains } from "~/chains/chains.server";
import { ChainDialog } from "~/chains/ChainView";
import { CHAINS } from "~/chains/texts";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.chain.name ?? "Chain"} · Backoffice` }];

const TABS = ["dialog", "context", "history"] as const;
type Tab = (typeof TABS)[number];

/** The chain page (spec 3 §2.9), read-only for now: tabs Dialog, Context and History in the URL (`?tab=`). */
export async function loader(args: LoaderFunctionArgs) {
  const { api, timeZone, may } = await requireRoute(args);
  const id = args.params.id ?? "";
  const wanted = new URL(args.request.url).searchParams.get("tab");
  const tab: Tab = TABS.find((t) => t === wanted) ?? "dialog";
  const chain = await chains.getOr404(api, id);
  const history = tab === "history" ? await chainHistory(api, chain, timeZone) : [];
  return { chain, tab, history, may };
}

export default function ChainPage() {
  const { chain, tab, history } = useLoaderData<typeof loader>();
  const T = CHAINS.page;
  const H = T.historyColumns;
  return (
    <>
      <div className="page-header">
        <h1>{chain.name}</h1>
        <span className="badge">{T.version(chain.version)}</span>
        <Link to={`/chains/${chain.id}/edit`} className="btn btn-secondary">
          {T.edit}
        </Link>
      </div>
      <nav className="tabs" aria-label={chain.name}>
        {TABS.map((t) => (
          <Link key={t} to={`?tab=${t}`} aria-current={t === tab ? "page" : undefined} className={t === tab ? "tab tab-active" : "tab"}>
            {T.tabs[t]}
          </Link>
        ))}
      </nav>
      {tab === "dialog" ? <ChainDialog links={chain.template.chain} chat={chain.template.chat} options={chain.template.options} /> : null}
      {tab === "context" ? <p className="muted">{T.contextNote}</p> : null}
      {tab === "history" ? (
        history.length ? (
          <table className="data-table">
            <caption className="visually-hidden">{T.tabs.history}</caption>
            <thead>
              <tr>
                <th scope="col">{H.version}</th>
                <th scope="col">{H.status}</th>
                <th scope="col">{H.date}</th>
                <th scope="col">{H.author}</th>
                <th scope="col">{H.comment}</th>
              </tr>
            </thead>
            <tbody>
              {history.map((e) => (
                <tr key={e.key}>
                  <td>{e.label}</td>
                  <td>{e.status}</td>
                  <td>{e.date}</td>
                  <td>{e.author}</td>
                  <td>{e.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="muted">{T.noHistory}</p>
        )
      ) : null}
    </>
  );
}
