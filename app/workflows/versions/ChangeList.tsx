/**
 * The differ's named changes as a list (the compare page, the commit summary): deleted red and created green, each
 * with a sign and a word too, not by colour alone.
 */
import { VERSIONS } from "./texts";

export type ChangeLine = { kind: string; text: string };

const kindOf = (kind: string) => (kind === "added" ? "added" : kind === "removed" ? "removed" : "changed");

export function ChangeList({ changes, id }: { changes: readonly ChangeLine[]; id?: string }) {
  return (
    <ul className="compare-changes" id={id}>
      {changes.map((c, i) => {
        const kind = kindOf(c.kind);
        return (
          <li key={i} className={`change-${kind}`}>
            <span className="compare-sign" aria-hidden="true">
              {VERSIONS.kinds[kind].sign}
            </span>
            <span className="visually-hidden">{`${VERSIONS.kinds[kind].text}: `}</span>
            {c.text}
          </li>
        );
      })}
    </ul>
  );
}
