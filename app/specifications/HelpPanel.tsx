import { Form, Link } from "@remix-run/react";
import { useRef, useState } from "react";
import type { Documentation } from "@contract/nlp";
import { useAdoptEarlyInput, useHydrated } from "~/ui/hydrated";
import { SPECIFICATIONS } from "./texts";

const D = SPECIFICATIONS.detail;
export type HelpTab = "functions" | "context";

/** Functions whose name or description contains the text (case-insensitive). */
function filterHelpers(doc: Documentation | null, q: string) {
  const needle = q.trim().toLowerCase();
  const all = doc?.helperFunctions ?? [];
  return needle ? all.filter((h) => h.name.toLowerCase().includes(needle) || h.description.toLowerCase().includes(needle)) : all;
}

/**
 * The help panel (spec 1 §2): tabs Functions (searchable by name or description) and Context. Without JavaScript the
 * toggle, the tabs and the search are links and a GET form (`?help=functions&hq=`); with it they act in place.
 */
export function HelpPanel({
  doc,
  open: initialOpen,
  tab: initialTab,
  q: initialQ,
}: {
  doc: Documentation | null;
  open: boolean;
  tab: HelpTab;
  q: string;
}) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(initialOpen);
  const [tab, setTab] = useState<HelpTab>(initialTab);
  const [q, setQ] = useState(initialQ);
  const searchRef = useRef<HTMLInputElement>(null);
  useAdoptEarlyInput(searchRef, q, setQ);
  const shown = filterHelpers(doc, q);
  const href = (next: { open: boolean; tab?: HelpTab }) =>
    next.open ? `?help=${next.tab ?? tab}${q ? `&hq=${encodeURIComponent(q)}` : ""}` : "?";
  const tabLink = (t: HelpTab, label: string) => (
    <Link
      to={href({ open: true, tab: t })}
      role={hydrated ? "tab" : undefined}
      id={`help-tab-${t}`}
      aria-selected={hydrated ? tab === t : undefined}
      aria-current={!hydrated && tab === t ? "page" : undefined}
      aria-controls={hydrated ? `help-panel-${t}` : undefined}
      className={`tab${tab === t ? " tab-active" : ""}`}
      preventScrollReset
      onClick={(e) => {
        if (!hydrated) return;
        e.preventDefault();
        setTab(t);
      }}
    >
      {label}
    </Link>
  );
  return (
    <aside className="help-panel" aria-label={D.help}>
      <Link
        to={href({ open: !open })}
        className="btn btn-secondary"
        aria-expanded={open}
        preventScrollReset
        onClick={(e) => {
          if (!hydrated) return;
          e.preventDefault();
          setOpen(!open);
        }}
      >
        {open ? D.hideHelp : D.help}
      </Link>
      {open ? (
        <div className="help-body">
          {!doc ? <p className="muted">{D.helpUnavailable}</p> : null}
          <div className="tabs" role={hydrated ? "tablist" : undefined}>
            {tabLink("functions", D.functions)}
            {tabLink("context", D.context)}
          </div>
          {tab === "functions" ? (
            <section id="help-panel-functions" role={hydrated ? "tabpanel" : undefined} aria-labelledby="help-tab-functions">
              <Form method="get" role="search" className="help-search" preventScrollReset onSubmit={(e) => hydrated && e.preventDefault()}>
                <input type="hidden" name="help" value="functions" />
                <label htmlFor="help-search">{D.helpSearch}</label>
                <input ref={searchRef} id="help-search" type="search" name="hq" value={q} onChange={(e) => setQ(e.currentTarget.value)} autoComplete="off" />
                {!hydrated ? (
                  <button type="submit" className="btn btn-secondary">
                    Search
                  </button>
                ) : null}
              </Form>
              {shown.length === 0 ? <p className="muted">{D.noFunctions}</p> : null}
              <ul className="helper-list">
                {shown.map((h) => (
                  <li key={h.name} className="helper">
                    <h3>
                      <code>{h.name}</code>
                    </h3>
                    <p>{h.description}</p>
                    <p>
                      <strong>{D.requirements}:</strong> {h.requirements}
                    </p>
                    {h.arguments.length ? (
                      <>
                        <p>
                          <strong>{D.arguments}:</strong>
                        </p>
                        <ul>
                          {h.arguments.map((a) => (
                            <li key={a.name}>
                              <code>{a.name}</code> ({a.type}): {a.description}
                            </li>
                          ))}
                        </ul>
                      </>
                    ) : null}
                    <p>
                      <strong>{D.example}:</strong> <code>{h.example.template}</code>
                    </p>
                    <p>
                      <strong>{D.output}:</strong> <code>{h.example.output}</code>
                    </p>
                  </li>
                ))}
              </ul>
            </section>
          ) : (
            <section id="help-panel-context" role={hydrated ? "tabpanel" : undefined} aria-labelledby="help-tab-context">
              {doc ? (
                <>
                  <p>{doc.contextObject.description}</p>
                  <dl className="context-fields">
                    {doc.contextObject.fields.map((f) => (
                      <div key={f.name}>
                        <dt>
                          <code>{f.name}</code> <span className="muted">{f.type}</span>
                        </dt>
                        <dd>{f.description}</dd>
                      </div>
                    ))}
                  </dl>
                  <pre className="json-view" tabIndex={0} aria-label="Sample context object">
                    {JSON.stringify(doc.contextObject.sample, null, 2)}
                  </pre>
                </>
              ) : null}
            </section>
          )}
        </div>
      ) : null}
    </aside>
  );
}
