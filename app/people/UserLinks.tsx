import { NavLink } from "@remix-run/react";
import { Icon, type IconName } from "~/ui/icons";
import { PEOPLE } from "./texts";

const LINKS: Array<{ to: string; label: string; icon: IconName }> = [
  { to: "change-password", label: PEOPLE.links.changePassword, icon: "key" },
  { to: "permissions", label: PEOPLE.links.permissions, icon: "shield" },
  { to: "authorization", label: PEOPLE.links.authorization, icon: "people" },
  { to: "user-settings", label: PEOPLE.links.userSettings, icon: "settings" },
];

/** The edit-user page's links to its four sub-pages (spec 1 §2), also shown on each sub-page. */
export function UserLinks({ id }: { id: string }) {
  const base = `/people/${encodeURIComponent(id)}`;
  return (
    <nav className="user-links" aria-label={PEOPLE.links.title}>
      <ul>
        <li>
          <NavLink to={base} end>
            <Icon name="pencil" /> {PEOPLE.editTitle}
          </NavLink>
        </li>
        {LINKS.map((l) => (
          <li key={l.to}>
            <NavLink to={`${base}/${l.to}`}>
              <Icon name={l.icon} /> {l.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
