import { Link } from "@remix-run/react";
import type { ConfigurationLists } from "@contract/ai-admin";
import { AI_ADMIN, MODELS } from "./texts";

type Props = {
  lists: ConfigurationLists;
  services: { id: string; name: string; sttProvider: string; description: string }[];
  may: { write: boolean };
  canOrganizations: boolean;
};

/**
 * /administration (spec 3 §2.1; docs/decisions/ai-administration.md): the AI administration at a glance — the models
 * with capability, provider and the organizations allowed, the speech-to-text services and who uses them, each
 * organization's speech settings and models — with the links to create and edit, and the template backup's card.
 */
export function AdministrationPage({ lists, services, may, canOrganizations }: Props) {
  const orgName = new Map(lists.organizations.map((o) => [o.id, o.name]));
  const modelName = new Map(lists.models.map((m) => [m.id, m.name]));
  const serviceName = new Map(services.map((s) => [s.id, s.name]));
  const names = (ids: readonly string[], of: Map<string, string>) => ids.map((id) => of.get(id) ?? id).join(", ") || AI_ADMIN.models.none;
  const M = AI_ADMIN.models;
  const S = AI_ADMIN.services;
  const O = AI_ADMIN.organizations;
  return (
    <>
      <div className="page-header">
        <h1>{AI_ADMIN.title}</h1>
      </div>
      <p className="muted">{AI_ADMIN.intro}</p>

      <section className="form-card" aria-labelledby="admin-models">
        <div className="page-header">
          <h2 id="admin-models">{M.heading}</h2>
          {may.write ? (
            <Link to="/models" className="btn btn-primary">
              {M.add}
            </Link>
          ) : null}
        </div>
        {lists.models.length === 0 ? (
          <p className="muted">{M.empty}</p>
        ) : (
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{M.columns.name}</th>
                <th scope="col">{M.columns.capability}</th>
                <th scope="col">{M.columns.provider}</th>
                <th scope="col">{M.columns.version}</th>
                <th scope="col">{M.columns.organizations}</th>
              </tr>
            </thead>
            <tbody>
              {lists.models.map((m) => (
                <tr key={m.id}>
                  <td>{may.write ? <Link to={`/models/${m.id}`}>{m.name}</Link> : m.name}</td>
                  <td>{MODELS.capabilities[m.capability]}</td>
                  <td>{m.provider}</td>
                  <td>{m.version}</td>
                  <td>{names(m.organizations, orgName)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="form-card" aria-labelledby="admin-services">
        <div className="page-header">
          <h2 id="admin-services">{S.heading}</h2>
          {may.write ? (
            <Link to="/sttservices" className="btn btn-primary">
              {S.add}
            </Link>
          ) : null}
        </div>
        {services.length === 0 ? (
          <p className="muted">{S.empty}</p>
        ) : (
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{S.columns.name}</th>
                <th scope="col">{S.columns.provider}</th>
                <th scope="col">{S.columns.description}</th>
                <th scope="col">{S.columns.usedBy}</th>
              </tr>
            </thead>
            <tbody>
              {services.map((s) => (
                <tr key={s.id}>
                  <td>{may.write ? <Link to={`/sttservices/${s.id}`}>{s.name}</Link> : s.name}</td>
                  <td>{s.sttProvider}</td>
                  <td>{s.description}</td>
                  <td>
                    {names(
                      lists.organizations.filter((o) => o.enableSpeechToText && o.speechToTextService === s.id).map((o) => o.id),
                      orgName,
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="form-card" aria-labelledby="admin-organizations">
        <h2 id="admin-organizations">{O.heading}</h2>
        {lists.organizations.length === 0 ? (
          <p className="muted">{O.empty}</p>
        ) : (
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{O.columns.name}</th>
                <th scope="col">{O.columns.speech}</th>
                <th scope="col">{O.columns.service}</th>
                <th scope="col">{O.columns.postProcessing}</th>
                <th scope="col">{O.columns.models}</th>
              </tr>
            </thead>
            <tbody>
              {lists.organizations.map((o) => (
                <tr key={o.id}>
                  <td>{canOrganizations ? <Link to={`/organizations/${o.id}/edit`}>{o.name}</Link> : o.name}</td>
                  <td>{o.enableSpeechToText ? O.on : O.off}</td>
                  <td>{o.speechToTextService ? (serviceName.get(o.speechToTextService) ?? o.speechToTextService) : M.none}</td>
                  <td>{o.speechPostProcessingModel ? (modelName.get(o.speechPostProcessingModel) ?? o.speechPostProcessingModel) : M.none}</td>
                  <td>{names(o.models, modelName)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="form-card" aria-labelledby="admin-backup">
        <h2 id="admin-backup">{AI_ADMIN.backup.heading}</h2>
        <p>{AI_ADMIN.backup.text}</p>
        <p>
          <Link to="/administration/template-storage" className="btn btn-secondary">
            {AI_ADMIN.backup.link}
          </Link>
        </p>
      </section>
    </>
  );
}
