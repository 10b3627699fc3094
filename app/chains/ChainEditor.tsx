import type { ChainChat, ChainDocument, ChainLink, ChainMessage, EditorOptions, FormVariable } from "@contract/chains";
import {
  CHAIN_LIMITS,
  CONTENT_FILE_TYPES,
  DOC_CODES,
  INSERT_AT,
  INSERT_IN,
  LINK_TYPES,
  SELECTORS,
  VARIABLE_DEFAULT_LIMITS,
  VARIABLE_DEFAULT_WHICH,
  VARIABLE_TYPES,
  problemText,
  takesDefault,
  type ChainProblem,
} from "@contract/chains-constants";
import { Form } from "@remix-run/react";
import { UPLOAD_ACCEPT } from "@contract/converters";
import { useState, type ReactNode } from "react";
import { ConfirmAction } from "~/ui/confirm";
import { FieldErrors } from "~/ui/fields";
import { TextFromFile, type TextFromFileState } from "~/ui/text-from-file";
import { Toast, toastOf } from "~/ui/toast";
import { UploadProgress, useUploadProgress } from "~/ui/upload-progress";
import { CodeField, variablesInScope, type ChainCompletions } from "./CodeField";
import { RunLinkButton } from "./run/RunBar";
import { CHAINS } from "./texts";

const T = CHAINS.page;
const E = CHAINS.editor;

type Where = { link: number | null; chat?: boolean };
type Props = {
  document: ChainDocument;
  draftVersion: number;
  options: EditorOptions;
  problems: readonly ChainProblem[];
  /** The numbers as typed in the refused link form (a NaN would show nothing). */
  typed: Readonly<Record<string, string>>;
  /** The link whose details are open: the one just edited. */
  open: string | null;
  /** The link whose 'Delete Link' asks for confirmation (the inline step without JavaScript). */
  confirmDelete: string | null;
  /** A link's "Load text from a file": the file's text for review, its OCR, or why it could not be read. */
  textFromFile: { link: string; state: TextFromFileState } | null;
  /** What the code fields complete besides the variables in scope: the Handlebars helpers and context fields. */
  codeHelp?: Pick<ChainCompletions, "helpers" | "contextFields">;
};

/** A prompt's or the chat's "Load text from a file" (spec 3 §5): its "Use this text" posts the link's own form. */
function LoadText({ link, loading }: { link: string; loading: Props["textFromFile"] }) {
  return <TextFromFile state={loading?.link === link ? loading.state : null} carry={{ link }} useFormId={linkFormId(link)} label={E.loadText} />;
}
const linkFormId = (link: string) => `link-form-${link}`;

/** 'Delete Link' (spec 3 §8) after its confirmation: a dialog with JavaScript, the page's inline step without. */
function DeleteLink({ name, link, draftVersion, confirming }: { name: string; link: string; draftVersion: number; confirming: boolean }) {
  return (
    <ConfirmAction
      intent="delete"
      id={`delete-${link}`}
      label={E.deleteLink}
      ariaLabel={`${E.deleteLink}: ${name}`}
      title={E.deleteLink}
      message={E.deleteLinkMessage(name)}
      confirmLabel={CHAINS.delete}
      confirming={confirming}
      fields={{ draftVersion: String(draftVersion), link }}
    />
  );
}

/** Hidden fields every post of the tab carries: the draft's version edited (a stale one is refused, 409). */
function Token({ draftVersion, link }: { draftVersion: number; link?: string }) {
  return (
    <>
      <input type="hidden" name="draftVersion" value={draftVersion} />
      {link ? <input type="hidden" name="link" value={link} /> : null}
    </>
  );
}

/** The Dialog tab editable without JavaScript (spec 3 §2.9): each button and each link's form posts an edit of the draft. */
export function ChainEditor({ document, draftVersion, options, problems: loaded, typed, open, confirmDelete, textFromFile, codeHelp }: Props) {
  // A link form posting a large file (an office file or PDF turned into page images) shows its progress with
  // JavaScript; a refusal then comes back here (the form keeps what was typed), a save reloads the page.
  const upload = useUploadProgress();
  const sent = upload.result && typeof upload.result === "object" ? (upload.result as { problems?: ChainProblem[]; message?: string }) : null;
  const problems = sent?.problems ?? loaded;
  const links = document.template.chain;
  const chat = document.template.chat;
  const at = (where: Where, field: string) =>
    problems.filter((p) => p.field === field && (where.chat ? p.chat === true : !p.chat && p.link === where.link)).map((p) => p.message);
  const completions = (index: number): ChainCompletions => ({ helpers: [], contextFields: [], ...codeHelp, variables: variablesInScope(document, index) });
  return (
    <>
      <Toast toast={toastOf(upload.result)} />
      {sent?.message && !sent.problems?.length ? (
        <p className="form-error" role="alert">
          <strong>{CHAINS.toasts.updateFailed}</strong> {sent.message}
        </p>
      ) : null}
      {problems.length ? (
        <div className="form-error" role="alert">
          <p>{CHAINS.inline.saveFailed}</p>
          <ul>
            {problems.map((p, i) => (
              <li key={i}>{problemText(p, p.link === null ? undefined : links[p.link]?.name)}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <OptionsRow options={document.template.options} draftVersion={draftVersion} />
      <Form method="post" className="chain-add">
        <Token draftVersion={draftVersion} />
        <input type="hidden" name="intent" value="add" />
        <span>{E.addLink}</span>{" "}
        {LINK_TYPES.filter((t) => t !== "content" || options.contentSources.length > 0).map((t) => (
          <button key={t} type="submit" name="type" value={t} className="btn btn-secondary">
            {E.types[t]}
          </button>
        ))}
        {!chat && links.length ? (
          <button type="submit" name="type" value="chat" className="btn btn-secondary">
            {E.types.chat}
          </button>
        ) : null}
      </Form>
      {links.length === 0 ? <p className="muted">{T.noLinks}</p> : null}
      <ol className="chain-links">
        {links.map((link, i) => (
          <li key={link.id} id={`link-${link.id}`}>
            <details open={open === link.id || problems.some((p) => !p.chat && p.link === i)}>
              <summary>
                {link.name} <span className="badge">{link.type}</span>
              </summary>
              <LinkForm link={link} where={{ link: i }} at={at} draftVersion={draftVersion} options={options} typed={open === link.id ? typed : {}} completions={completions(i)} imageVariables={imageVariablesBefore(links, i)} upload={upload} />
              {link.type === "prompt" ? <LoadText link={link.id} loading={textFromFile} /> : null}
            </details>
            <Form method="post" className="chain-link-actions">
              <Token draftVersion={draftVersion} link={link.id} />
              {/* Execute-this-link posts the page's run form (RunBar), not this one. */}
              <RunLinkButton index={i} name={link.name} />
              {i > 0 ? (
                <button type="submit" name="intent" value="up" className="btn btn-secondary" aria-label={E.moveUpOf(link.name)}>
                  {E.moveUp}
                </button>
              ) : null}
              {i < links.length - 1 ? (
                <button type="submit" name="intent" value="down" className="btn btn-secondary" aria-label={E.moveDownOf(link.name)}>
                  {E.moveDown}
                </button>
              ) : null}
            </Form>
            <DeleteLink name={link.name} link={link.id} draftVersion={draftVersion} confirming={confirmDelete === link.id} />
          </li>
        ))}
      </ol>
      {chat ? (
        <div className="chain-chat" id="link-chat">
          <details open={open === "chat" || problems.some((p) => p.chat)}>
            <summary>
              {chat.name} <span className="badge">{T.chat}</span>
            </summary>
            <LinkForm link={chat} where={{ link: null, chat: true }} at={at} draftVersion={draftVersion} options={options} typed={open === "chat" ? typed : {}} completions={completions(links.length)} imageVariables={imageVariablesBefore(links, links.length)} upload={upload} />
            <LoadText link="chat" loading={textFromFile} />
          </details>
          <DeleteLink name={chat.name} link="chat" draftVersion={draftVersion} confirming={confirmDelete === "chat"} />
        </div>
      ) : null}
    </>
  );
}

/** The image variables of the form links before link `index`: what a content link's AI may read. */
const imageVariablesBefore = (links: readonly ChainLink[], index: number) =>
  links.slice(0, index).flatMap((l) => (l.type === "form" ? l.variables.filter((v) => v.type === "image").map((v) => v.name) : []));

/** A select of fixed values (the options row's, a form variable's); the empty value reads as none. */
function OptionSelect({
  id,
  name,
  label,
  values,
  value,
  attrs,
  children,
}: {
  id: string;
  name: string;
  label: string;
  values: readonly string[];
  value: string;
  /** Its invalid state and errors' id, when the field has errors. */
  attrs?: Described;
  /** After the select: its errors. */
  children?: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value} {...attrs}>
        {values.map((v) => (
          <option key={v} value={v}>
            {v || T.none}
          </option>
        ))}
      </select>
      {children}
    </div>
  );
}

/** The options row (spec 3 §2.9): the section a result goes into and where, saved in the template's options. */
function OptionsRow({ options, draftVersion }: { options: ChainDocument["template"]["options"]; draftVersion: number }) {
  return (
    <Form method="post" className="chain-options chain-add" preventScrollReset>
      <Token draftVersion={draftVersion} />
      <OptionSelect id="chain-insert-in" name="insertIn" label={T.options} values={INSERT_IN} value={options.insertIn} />
      <OptionSelect id="chain-insert-at" name="insertAt" label={T.at} values={INSERT_AT} value={options.insertAt} />
      <button type="submit" name="intent" value="options" className="btn btn-secondary">
        {E.saveOptions}
      </button>
    </Form>
  );
}

/** A list of uploaded files or images, each with its Remove button (posting the link's form). */
function Uploaded({ names, intent, label }: { names: readonly string[]; intent: (j: number) => string; label: (name: string) => string }) {
  return names.length ? (
    <ul className="chain-files">
      {names.map((name, j) => (
        <li key={j}>
          {name}{" "}
          <button type="submit" name="intent" value={intent(j)} className="btn btn-secondary" aria-label={label(name)}>
            {CHAINS.remove}
          </button>
        </li>
      ))}
    </ul>
  ) : null;
}

type Described = { "aria-invalid"?: boolean; "aria-describedby"?: string };
type FieldProps = {
  id: (field: string) => string;
  described: (field: string) => Described;
  Errors: (props: { field: string }) => JSX.Element;
};

/**
 * A form variable's fields past name, label and type (spec 3 §3 "Variable in a form", §9): origin, value (true,
 * false or none for a boolean), the source document and selector, a claims variable's modes, and the default-value
 * selector (where, property, value; hidden and empty for a claims or image variable, which takes none). Each posts one
 * value per variable, in order (the modes: the variable's index when checked).
 */
function VariableFields({ variable: v, index: i, id, described, Errors }: FieldProps & { variable: FormVariable; index: number }) {
  const n = i + 1;
  const at = (part: string) => `variables[${i}].${part}`;
  return (
    <>
      <div className="field">
        <label htmlFor={id(at("origin"))}>{E.variable(n, "origin")}</label>
        <input id={id(at("origin"))} name="variableOrigin" defaultValue={v.origin} maxLength={50} {...described(at("origin"))} />
        <Errors field={at("origin")} />
      </div>
      {v.type === "boolean" ? (
        <OptionSelect id={id(at("value"))} name="variableValue" label={E.variable(n, "value")} values={["", "true", "false"]} value={typeof v.value === "boolean" ? String(v.value) : ""} attrs={described(at("value"))}>
          <Errors field={at("value")} />
        </OptionSelect>
      ) : (
        <div className="field">
          <label htmlFor={id(at("value"))}>{E.variable(n, "value")}</label>
          <textarea id={id(at("value"))} name="variableValue" rows={2} defaultValue={v.value === null ? "" : String(v.value)} maxLength={CHAIN_LIMITS.variableValue} {...described(at("value"))} />
          <Errors field={at("value")} />
        </div>
      )}
      <OptionSelect id={id(at("source.docCode"))} name="variableDocCode" label={E.variableDocCode(n)} values={DOC_CODES} value={v.source.docCode} attrs={described(at("source.docCode"))}>
        <Errors field={at("source.docCode")} />
      </OptionSelect>
      <OptionSelect id={id(at("source.selector"))} name="variableSelector" label={E.variableSelector(n)} values={SELECTORS} value={v.source.selector} attrs={described(at("source.selector"))}>
        <Errors field={at("source.selector")} />
      </OptionSelect>
      {v.type === "claims" ? (
        <>
          <div className="field checkbox">
            <label>
              <input type="checkbox" name="variableSingleClaim" value={i} defaultChecked={v.singleClaimMode} /> {E.variableSingleClaim(n)}
            </label>
          </div>
          <div className="field checkbox">
            <label>
              <input type="checkbox" name="variableIndependentOnly" value={i} defaultChecked={v.independentOnly} /> {E.variableIndependentOnly(n)}
            </label>
          </div>
        </>
      ) : null}
      <DefaultFields variable={v} index={i} id={id} described={described} Errors={Errors} />
    </>
  );
}

/** A form variable's default-value selector: where to look, the property there, the literal after that. */
function DefaultFields({ variable: v, index: i, id, described, Errors }: FieldProps & { variable: FormVariable; index: number }) {
  const n = i + 1;
  const at = (part: string) => `variables[${i}].defaultValue.${part}`;
  const d = v.defaultValue ?? { which: "", property: "", value: "" };
  // A claims or image variable takes no default: empty fields keep the posted lists in step, unless one was set
  // (a type just changed), which stays in sight with the save's refusal.
  if (!takesDefault(v.type) && !d.which && !d.property && !d.value) {
    return (
      <>
        <input type="hidden" name="variableDefaultWhich" value="" />
        <input type="hidden" name="variableDefaultProperty" value="" />
        <input type="hidden" name="variableDefaultValue" value="" />
      </>
    );
  }
  const hint = `${id(at("property"))}-hint`;
  const withHint = (attrs: Described) => ({ ...attrs, "aria-describedby": [hint, attrs["aria-describedby"]].filter(Boolean).join(" ") });
  return (
    <>
      <div className="field">
        <label htmlFor={id(at("which"))}>{E.variableDefault(n, "from")}</label>
        <select id={id(at("which"))} name="variableDefaultWhich" defaultValue={d.which} {...described(at("which"))}>
          {VARIABLE_DEFAULT_WHICH.map((w) => (
            <option key={w} value={w}>
              {E.variableDefaultFrom[w]}
            </option>
          ))}
        </select>
        <Errors field={at("which")} />
      </div>
      <div className="field">
        <label htmlFor={id(at("property"))}>{E.variableDefault(n, "property")}</label>
        <input id={id(at("property"))} name="variableDefaultProperty" defaultValue={d.property} maxLength={VARIABLE_DEFAULT_LIMITS.property} {...withHint(described(at("property")))} />
        <p className="hint" id={hint}>
          {E.variableDefaultHint}
        </p>
        <Errors field={at("property")} />
      </div>
      <div className="field">
        <label htmlFor={id(at("value"))}>{E.variableDefault(n, "value")}</label>
        <input id={id(at("value"))} name="variableDefaultValue" defaultValue={d.value} maxLength={VARIABLE_DEFAULT_LIMITS.value} {...described(at("value"))} />
        <Errors field={at("value")} />
      </div>
    </>
  );
}

function LinkForm({
  link,
  where,
  at,
  draftVersion,
  options,
  typed,
  completions,
  imageVariables,
  upload,
}: {
  link: ChainLink | ChainChat;
  where: Where;
  at: (where: Where, field: string) => string[];
  draftVersion: number;
  options: EditorOptions;
  typed: Readonly<Record<string, string>>;
  completions: ChainCompletions;
  imageVariables: readonly string[];
  upload: ReturnType<typeof useUploadProgress>;
}) {
  const key = link.type === "chat" ? "chat" : link.id;
  // Which form the one upload in progress came from: its bar shows there.
  const [uploading, setUploading] = useState(false);
  const id = (field: string) => `${key}-${field.replace(/[^A-Za-z0-9]+/g, "-")}`;
  const errors = (field: string) => {
    const list = at(where, field);
    return list.length ? list : undefined;
  };
  const described = (field: string) => (errors(field) ? { "aria-invalid": true, "aria-describedby": `${id(field)}-errors` } : {});
  const Errors = ({ field }: { field: string }) => <FieldErrors id={`${id(field)}-errors`} errors={errors(field)} />;
  // A function, not a component: a component made here would be a new type on every render and remount Monaco.
  const code = (field: string, name: string, label: string, value: string, rows: number, language: "handlebars" | "sql" = "handlebars") => (
    <div className="field" key={field}>
      <CodeField
        id={id(field)}
        name={name}
        defaultValue={value}
        label={label}
        rows={rows}
        language={language}
        completions={completions}
        invalid={errors(field) !== undefined}
        describedBy={errors(field) ? `${id(field)}-errors` : undefined}
      />
      <Errors field={field} />
    </div>
  );
  const chosenImages = link.type === "content" && link.source.type === "ai" ? link.source.value.images : [];
  const modelOf = (model: string | null) => options.models.find((m) => m.id === model);
  const chosen = link.type === "prompt" || link.type === "chat" ? modelOf(link.model) : undefined;
  const lastUser = link.type === "prompt" || link.type === "chat" ? link.messages.map((m) => m.role).lastIndexOf("user") : -1;
  // Spec 3 §5: images only for a vision model, on a user message before the last user message.
  const takesImages = (m: ChainMessage, i: number) => chosen?.vision === true && m.role === "user" && i !== lastUser;
  const uploads =
    link.type === "content" ? link.source.type === "file" : (link.type === "prompt" || link.type === "chat") && link.messages.some(takesImages);
  /** A prompt's choices are the chat models, an AI content link's the image-generation ones. */
  const modelSelect = (field: string, name: string, value: string | null, image = false) => {
    const models = options.models.filter((m) => m.image === image);
    return (
      <div className="field">
        <label htmlFor={id(field)}>{T.model}</label>
        <select id={id(field)} name={name} defaultValue={value ?? ""} aria-describedby={`${id(field)}-hint`} {...described(field)}>
          <option value="">{T.defaultModel}</option>
          {models.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
          {value && !models.some((m) => m.id === value) ? <option value={value}>{value}</option> : null}
        </select>
        <p className="hint" id={`${id(field)}-hint`}>
          {value ? E.modelChangeHint : E.noModelHint}
        </p>
        <Errors field={field} />
      </div>
    );
  };
  return (
    <Form
      method="post"
      className="chain-link-form stack"
      id={linkFormId(key)}
      preventScrollReset
      encType={uploads ? "multipart/form-data" : undefined}
      onSubmit={
        uploads
          ? (event) => {
              setUploading(true);
              upload.submit(event, new FormData(event.currentTarget));
            }
          : undefined
      }
    >
      {uploading ? <UploadProgress progress={upload.progress} /> : null}
      <Token draftVersion={draftVersion} link={key} />
      {/* Enter in a field saves the link, not the first button (Add message). */}
      <button type="submit" name="intent" value="save" hidden tabIndex={-1} aria-hidden="true" />
      <div className="field">
        <label htmlFor={id("name")}>{E.name}</label>
        <input id={id("name")} name="name" defaultValue={link.name} maxLength={100} required {...described("name")} />
        <Errors field="name" />
      </div>
      {link.type === "prompt" || link.type === "chat" ? (
        <>
          {modelSelect("model", "model", link.model)}
          <div className="field">
            <label htmlFor={id("temperature")}>{T.temperature}</label>
            <input id={id("temperature")} name="temperature" inputMode="decimal" defaultValue={typed.temperature ?? String(link.temperature)} {...described("temperature")} />
            <Errors field="temperature" />
          </div>
          <div className="field">
            <label htmlFor={id("max_tokens")}>{T.maxTokens}</label>
            <input id={id("max_tokens")} name="max_tokens" inputMode="numeric" defaultValue={typed.max_tokens ?? (link.max_tokens === null ? "" : String(link.max_tokens))} {...described("max_tokens")} />
            <Errors field="max_tokens" />
          </div>
          {link.params.length ? (
            <fieldset>
              <legend>{E.params}</legend>
              {link.params.map((p, i) => {
                const field = `params[${i}].value`;
                return (
                  <div className="field" key={p.name}>
                    <label htmlFor={id(field)}>{p.name}</label>
                    {p.options.length ? (
                      <select id={id(field)} name="paramValue" defaultValue={p.value} {...described(field)}>
                        {[...new Set([...p.options, p.value])].map((o) => (
                          <option key={o} value={o}>
                            {o}
                          </option>
                        ))}
                      </select>
                    ) : (
                      <input id={id(field)} name="paramValue" defaultValue={p.value} {...described(field)} />
                    )}
                    <Errors field={field} />
                  </div>
                );
              })}
            </fieldset>
          ) : null}
          {chosen?.functions.length || link.functions.length ? (
            <fieldset>
              <legend>{E.functions}</legend>
              {[...new Set([...(chosen?.functions ?? []), ...link.functions])].map((f) => (
                <div className="field checkbox" key={f}>
                  <label>
                    <input type="checkbox" name="functions" value={f} defaultChecked={link.functions.includes(f)} /> {f}
                  </label>
                </div>
              ))}
            </fieldset>
          ) : null}
          {link.type === "chat" ? (
            <div className="field checkbox">
              <label>
                <input type="checkbox" name="includeHistory" defaultChecked={link.includeHistory} /> {T.includeHistory}
              </label>
            </div>
          ) : null}
          <fieldset>
            <legend>{T.messages}</legend>
            {link.messages.map((m, i) => {
              const field = `messages[${i}].content`;
              const images = m.supplementals?.files ?? [];
              const imagesField = `messages[${i}].supplementals.files`;
              return (
                <div key={i}>
                  {code(field, "content", E.message(i + 1, m.role), m.content, m.role === "system" ? 3 : 4)}
                  {images.length || takesImages(m, i) || errors(imagesField) ? (
                    <div className="field">
                      <span className="label">{E.images(i + 1)}</span>
                      <Uploaded names={images.map((im) => im.name)} intent={(j) => `removeImage:${i}:${j}`} label={E.removeFile} />
                      {takesImages(m, i) ? (
                        <>
                          <label htmlFor={id(`image-${i}`)}>{E.attachImage(i + 1)}</label>
                          <input type="file" id={id(`image-${i}`)} name={`image-${i}`} accept={UPLOAD_ACCEPT.images.join(",")} {...described(imagesField)} />
                        </>
                      ) : null}
                      <Errors field={imagesField} />
                    </div>
                  ) : null}
                </div>
              );
            })}
            <button type="submit" name="intent" value="addMessage" className="btn btn-secondary">
              {E.addMessage}
            </button>{" "}
            {link.messages.length > 2 ? (
              <button type="submit" name="intent" value="deleteMessage" className="btn btn-secondary">
                {E.deleteMessage}
              </button>
            ) : null}
          </fieldset>
        </>
      ) : null}
      {link.type === "query" ? code("query", "query", T.query, link.query, 8, "sql") : null}
      {link.type === "template" ? (
        <>
          {code("template", "template", T.template, link.template, 8)}
          <div className="field checkbox">
            <label>
              <input type="checkbox" name="renderOnly" defaultChecked={link.renderOnly} /> {T.renderOnly}
            </label>
          </div>
        </>
      ) : null}
      {link.type === "form" ? (
        <fieldset>
          <legend>{T.variables}</legend>
          {link.variables.map((v, i) => (
            <div className="chain-variable" key={i}>
              {(["name", "label"] as const).map((part) => {
                const field = `variables[${i}].${part}`;
                return (
                  <div className="field" key={part}>
                    <label htmlFor={id(field)}>{E.variable(i + 1, part)}</label>
                    <input id={id(field)} name={part === "name" ? "variableName" : "variableLabel"} defaultValue={v[part]} maxLength={100} {...described(field)} />
                    <Errors field={field} />
                  </div>
                );
              })}
              <div className="field">
                <label htmlFor={id(`variables[${i}].type`)}>{E.variable(i + 1, "type")}</label>
                <select id={id(`variables[${i}].type`)} name="variableType" defaultValue={v.type} {...described(`variables[${i}].type`)}>
                  {[...new Set([...VARIABLE_TYPES, v.type])].map((t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ))}
                </select>
                <Errors field={`variables[${i}].type`} />
              </div>
              <VariableFields variable={v} index={i} id={id} described={described} Errors={Errors} />
            </div>
          ))}
          <button type="submit" name="intent" value="addVariable" className="btn btn-secondary">
            {E.addVariable}
          </button>{" "}
          {link.variables.length ? (
            <button type="submit" name="intent" value="deleteVariable" className="btn btn-secondary">
              {E.deleteVariable}
            </button>
          ) : null}
        </fieldset>
      ) : null}
      {link.type === "content" ? (
        <>
          <div className="field">
            <label htmlFor={id("source.type")}>{E.sourceType}</label>
            <select id={id("source.type")} name="sourceType" defaultValue={link.source.type} aria-describedby={`${id("source.type")}-hint`}>
              {[...new Set([...options.contentSources, link.source.type])].map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
            <p className="hint" id={`${id("source.type")}-hint`}>
              {E.sourceChangeHint}
            </p>
          </div>
          {link.source.type === "file" ? (
            <div className="field">
              <span className="label">{E.files}</span>
              {link.source.value.length ? null : <p className="muted">{E.noFiles}</p>}
              <Uploaded names={link.source.value.map((f) => f.name)} intent={(j) => `removeFile:${j}`} label={E.removeFile} />
              <label htmlFor={id("source.value")}>{E.addFiles}</label>
              <input type="file" multiple id={id("source.value")} name="contentFile" accept={CONTENT_FILE_TYPES.map((t) => `.${t}`).join(",")} {...described("source.value")} />
              <Errors field="source.value" />
            </div>
          ) : null}
          {link.source.type === "mermaid" ? code("source.value", "mermaid", E.mermaid, link.source.value, 8) : null}
          {link.source.type === "ai" ? (
            <>
              {modelSelect("source.value.model", "aiModel", link.source.value.model, true)}
              {code("source.value.template", "aiTemplate", T.template, link.source.value.template, 8)}
              <fieldset>
                <legend>{E.aiImages}</legend>
                {imageVariables.length || link.source.value.images.length ? (
                  [...new Set([...imageVariables, ...link.source.value.images])].map((v) => (
                    <div className="field checkbox" key={v}>
                      <label>
                        <input type="checkbox" name="aiImages" value={v} defaultChecked={chosenImages.includes(v)} /> {v}
                      </label>
                    </div>
                  ))
                ) : (
                  <p className="muted">{E.noImageVariables}</p>
                )}
              </fieldset>
            </>
          ) : null}
        </>
      ) : null}
      <button type="submit" name="intent" value="save" className="btn btn-primary">
        {E.saveLink}
      </button>
    </Form>
  );
}
