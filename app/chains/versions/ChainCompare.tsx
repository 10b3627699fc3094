/**
 * A chain's compare page (spec 3 §2.9 compare): the active version against the draft or a numbered version, as the
 * chain differ's named changes (the versions kit's change list: each with a sign and a word, not by colour alone);
 * 'Quit comparision mode' goes back. Rendered on the server: it works without JavaScript.
 */
import { Link } from "@remix-run/react";
import { ChangeList } from "~/workflows/versions/ChangeList";
import { CHAIN_VERSIONS as V } from "./texts";
import type { CompareData } from "./versions.server";

export function ChainCompare({ data }: { data: CompareData }) {
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{data.chain.name}</h1>
          <p>{V.compareTitle(data.labels.current, data.labels.other)}</p>
        </div>
        <div className="header-actions">
          <Link to={data.back} className="btn btn-primary">
            {V.quitCompare}
          </Link>
        </div>
      </div>
      <section aria-labelledby="compare-changes-heading">
        <h2 id="compare-changes-heading">{V.changes}</h2>
        {data.changes.length ? <ChangeList changes={data.changes} /> : <p className="empty-state">{V.noChanges}</p>}
      </section>
    </>
  );
}
