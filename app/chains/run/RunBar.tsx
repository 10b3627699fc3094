import { Form } from "@remix-run/react";
import { RUNS } from "./texts";

/**
 * Run on the chain page (spec 3 §2.9 toolbar and each link's execute button): posts to /chains/{id}/runs, which starts
 * the run and lands on its page (the output pane), with or without JavaScript.
 */
export function RunBar({ chainId, links }: { chainId: string; links: readonly { name: string }[] }) {
  if (!links.length) return null;
  return (
    <Form method="post" action={`/chains/${encodeURIComponent(chainId)}/runs`} className="run-start">
      <button type="submit" className="btn btn-primary">
        {RUNS.run}
      </button>
      <details>
        <summary>{RUNS.runOneLink}</summary>
        <div className="run-links">
          {links.map((l, i) => (
            <button key={i} type="submit" name="index" value={i} className="btn btn-secondary">
              {RUNS.runLink(l.name || String(i + 1))}
            </button>
          ))}
        </div>
      </details>
    </Form>
  );
}
