import { Form, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { ChainContext } from "@contract/chain-context";
import { INVENTION_SEARCH, type InventionSearchAnswer } from "@contract/inventions";
import { Pagination } from "~/ui/list";
import { CONTEXT } from "./texts";

type Search = { q: string; page: InventionSearchAnswer | null; failed: boolean };

/**
 * The chain page's Context tab (spec 3 §2.9): the invention search, the context document (.docx) and its claims. Every
 * part is a plain form (the search a GET form, the rest posts to /chains/{id}/context); with JavaScript the search
 * submits itself 300 ms after typing stops, only for a non-empty text, and a failed search leaves the list as it was.
 */
export function ContextTab({ chainId, context, search }: { chainId: string; context: ChainContext; search: Search }) {
  const action = `/chains/${encodeURIComponent(chainId)}/context`;
  const page = useKeptPage(search);
  const chosenId = context.invention?.id ?? null;
  const selected = context.claims.filter((c) => c.selected).length;
  const keep = (
    <>
      <input type="hidden" name="q" value={search.q} />
      <input type="hidden" name="from" value={page?.from ?? 0} />
    </>
  );
  return (
    <div className="chain-context">
      <section aria-labelledby="context-invention">
        <h2 id="context-invention">{CONTEXT.invention}</h2>
        <Chosen action={action} keep={keep} intent="invention-clear" none={CONTEXT.noInvention}>
          {context.invention ? (
            <>
              <strong>{context.invention.title}</strong> <span className="muted">{CONTEXT.reference(context.invention.id)}</span>
            </>
          ) : null}
        </Chosen>
        <InventionSearchForm q={search.q} />
        {page ? (
          <>
            <p className="muted" aria-live="polite">
              {page.total ? CONTEXT.results(page.total) : CONTEXT.noResults}
            </p>
            {page.data.length ? (
              <Form method="post" action={action}>
                {keep}
                <input type="hidden" name="intent" value="invention" />
                <ul className="context-results">
                  {page.data.map((i) => (
                    <li key={i.id}>
                      <span>
                        {i.title || i.id} <span className="muted">{CONTEXT.reference(i.id)}</span>
                      </span>
                      {i.id === chosenId ? (
                        <span className="badge">{CONTEXT.chosen}</span>
                      ) : (
                        <button type="submit" name="invention" value={i.id} className="btn btn-secondary" aria-label={`${CONTEXT.choose} ${i.title || i.id}`}>
                          {CONTEXT.choose}
                        </button>
                      )}
                    </li>
                  ))}
                </ul>
              </Form>
            ) : null}
            <Pagination
              page={Math.floor(page.from / INVENTION_SEARCH.size) + 1}
              pageSize={INVENTION_SEARCH.size}
              total={page.total}
              href={(p) => `?${new URLSearchParams({ tab: "context", q: search.q, ...(p > 1 ? { from: String((p - 1) * INVENTION_SEARCH.size) } : {}) })}`}
            />
          </>
        ) : null}
      </section>

      <section aria-labelledby="context-document">
        <h2 id="context-document">{CONTEXT.document}</h2>
        <Chosen action={action} keep={keep} intent="document-clear" none={CONTEXT.noDocument}>
          {context.document ? <strong>{context.document.name}</strong> : null}
        </Chosen>
        <Form method="post" action={action} encType="multipart/form-data" className="context-upload">
          {keep}
          <div className="field">
            <label htmlFor="context-document-file">{CONTEXT.documentLabel}</label>
            <input id="context-document-file" type="file" name="document" accept=".docx,application/vnd.openxmlformats-officedocument.wordprocessingml.document" />
          </div>
          <button type="submit" name="intent" value="upload" className="btn btn-secondary">
            {CONTEXT.upload}
          </button>
        </Form>
      </section>

      {context.document ? (
        <section aria-labelledby="context-claims">
          <h2 id="context-claims">{CONTEXT.claims}</h2>
          {context.claims.length ? (
            <Form method="post" action={action}>
              {keep}
              <fieldset className="context-claims">
                <legend>{CONTEXT.selectedCount(selected, context.claims.length)}</legend>
                {context.claims.map((c) => (
                  <label key={c.claimNumber} className="context-claim">
                    <input type="checkbox" name="claim" value={c.claimNumber} defaultChecked={c.selected} />
                    <span>
                      <strong>{CONTEXT.claimLabel(c.claimNumber)}</strong>{" "}
                      <span className="muted">{c.independentClaim ? CONTEXT.independent : CONTEXT.dependsOn(c.parentClaimNumbers)}</span>
                      <br />
                      {c.text}
                    </span>
                  </label>
                ))}
              </fieldset>
              <button type="submit" name="intent" value="claims" className="btn btn-primary">
                {CONTEXT.saveSelection}
              </button>
            </Form>
          ) : (
            <p className="muted">{CONTEXT.noClaims}</p>
          )}
        </section>
      ) : null}
    </div>
  );
}

/** What is chosen (the invention, the document) with Remove, or the text saying nothing is. */
function Chosen({ action, keep, intent, none, children }: { action: string; keep: ReactNode; intent: string; none: string; children: ReactNode }) {
  if (!children) return <p className="muted">{none}</p>;
  return (
    <Form method="post" action={action} className="context-chosen">
      {keep}
      <p>{children}</p>
      <button type="submit" name="intent" value={intent} className="btn btn-secondary">
        {CONTEXT.remove}
      </button>
    </Form>
  );
}

/** The search's page, the last good one kept while a search fails (spec 3 §5: its errors are silently ignored). */
function useKeptPage(search: Search): InventionSearchAnswer | null {
  const kept = useRef<InventionSearchAnswer | null>(search.page);
  if (!search.failed) kept.current = search.page;
  return kept.current;
}

/** The search box: a GET form; with JavaScript it submits itself 300 ms after typing stops, a non-empty text only. */
function InventionSearchForm({ q }: { q: string }) {
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<number | undefined>(undefined);
  const [text, setText] = useState(q);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  useEffect(() => {
    if (document.activeElement?.id !== "invention-search") setText(q);
  }, [q]);
  const searchSoon = (value: string) => {
    window.clearTimeout(timer.current);
    if (!value.trim()) return;
    timer.current = window.setTimeout(() => {
      if (formRef.current) submit(formRef.current, { replace: true, preventScrollReset: true });
    }, INVENTION_SEARCH.debounceMs);
  };
  return (
    <Form method="get" role="search" ref={formRef} className="context-search">
      <input type="hidden" name="tab" value="context" />
      <label htmlFor="invention-search">{CONTEXT.searchLabel}</label>
      <input
        id="invention-search"
        type="search"
        name="q"
        value={text}
        maxLength={INVENTION_SEARCH.maxText}
        autoComplete="off"
        onChange={(e) => {
          setText(e.currentTarget.value);
          searchSoon(e.currentTarget.value);
        }}
      />
      <button type="submit" className="btn btn-secondary">
        {CONTEXT.search}
      </button>
    </Form>
  );
}
