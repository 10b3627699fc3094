import { useRef } from "react";
import { WORKFLOW_LIMITS } from "@contract/workflow-constants";
import { type ContractField, PREDICATE_FUNCTIONS } from "@contract/workflow-contracts";
import { openModal } from "~/ui/modal";
import {
  EMPTY_CONDITION,
  conditionText,
  fieldOf,
  functionsFor,
  groupsText,
  placeholderOf,
  valueKind,
  withField,
  withFunction,
  type ConditionDraft,
  type ConditionGroups,
} from "./model";
import { CONDITION_TEXTS as T } from "./texts";
import { DueDateParts, InputField, SelectInput, idOf, type Errors } from "./widgets";

type EditorProps = {
  /** The form name the conditions post under (`predicates`): `${name}.${group}.${condition}.field` and so on. */
  name: string;
  groups: ConditionGroups;
  onChange: (groups: ConditionGroups) => void;
  /** The fields of the chosen event's contract. */
  fields: readonly ContractField[];
  errors: Errors;
  /** True once JavaScript runs: the groups are edited in the dialogs; else inline, with buttons that post. */
  interactive: boolean;
  readOnly?: boolean;
};

/**
 * The conditions (predicates) editor (spec 3 §2.5): OR between groups, AND inside a group. Its read-only text mode
 * says the conditions in words; with JavaScript, "Edit conditions" opens the 'Edit "OR" conditions' dialog (the
 * groups) and each group its 'Edit "AND" conditions' dialog (the conditions). Without JavaScript the same headings
 * are sections of the page, and Add, Remove and Apply post the form (the action answers with the edited groups).
 * Choosing a field resets the function and the value; changing the function resets the value (model.ts).
 */
export function ConditionsEditor(props: EditorProps) {
  const { name, groups, fields, errors, interactive, readOnly } = props;
  const orRef = useRef<HTMLDialogElement>(null);
  const messages = Object.entries(errors).filter(([key, m]) => key.startsWith(`${name}.`) && m);
  const text = groupsText(groups, fields);
  return (
    <fieldset className="conditions">
      <legend>{T.legend}</legend>
      <p className="conditions-text" id={`${idOf(name)}-text`}>
        {text}
      </p>
      {messages.length ? (
        <ul className="field-errors" id={`${idOf(name)}-errors`}>
          {messages.map(([key, m]) => (
            <li key={key} className="field-error">
              {whereOf(key, name)}: {m}
            </li>
          ))}
        </ul>
      ) : null}
      {readOnly ? null : interactive ? (
        <>
          <button
            type="button"
            className="btn btn-secondary"
            id={`${idOf(name)}-edit`}
            aria-describedby={`${idOf(name)}-text${messages.length ? ` ${idOf(name)}-errors` : ""}`}
            onClick={() => openModal(orRef.current)}
          >
            {T.editConditions}
          </button>
          <dialog ref={orRef} className="conditions-dialog" aria-labelledby={`${idOf(name)}-or-title`}>
            <OrGroups {...props} />
          </dialog>
        </>
      ) : (
        <OrGroups {...props} />
      )}
    </fieldset>
  );
}

/** "Group 1, condition 2" of an error's form name. */
function whereOf(key: string, name: string): string {
  const [g, c] = key.slice(name.length + 1).split(".");
  return `${T.group(Number(g) + 1)}, ${T.condition(Number(c) + 1).toLowerCase()}`;
}

function OrGroups({ name, groups, onChange, fields, errors, interactive }: EditorProps) {
  const andRefs = useRef<Array<HTMLDialogElement | null>>([]);
  const setGroup = (g: number, group: ConditionDraft[]) => onChange(groups.map((x, i) => (i === g ? group : x)).filter((x) => x.length > 0));
  const addGroup = () => {
    onChange([...groups, [EMPTY_CONDITION]]);
    // The new group's dialog exists after this render.
    window.setTimeout(() => openModal(andRefs.current[groups.length]), 0);
  };
  return (
    <section className="conditions-or" aria-labelledby={`${idOf(name)}-or-title`}>
      <h3 id={`${idOf(name)}-or-title`}>{T.editOr}</h3>
      {groups.length === 0 ? <p className="field-hint">{T.noGroups}</p> : null}
      <ol className="conditions-groups">
        {groups.map((group, g) => (
          <li key={g} className="conditions-group">
            {interactive ? (
              <>
                <p className="conditions-text">
                  <strong>{T.group(g + 1)}:</strong> {group.map((c) => conditionText(c, fields)).join(" AND ")}
                </p>
                <div className="conditions-actions">
                  <button type="button" className="btn btn-secondary btn-small" onClick={() => openModal(andRefs.current[g])}>
                    {T.editGroup(g + 1)}
                  </button>
                  <button type="button" className="btn btn-secondary btn-small" onClick={() => onChange(groups.filter((_, i) => i !== g))}>
                    {T.removeGroup(g + 1)}
                  </button>
                </div>
                <dialog
                  ref={(el) => {
                    andRefs.current[g] = el;
                  }}
                  className="conditions-dialog"
                  aria-labelledby={`${idOf(name)}-and-${g}-title`}
                >
                  <AndGroup name={name} g={g} group={group} onChange={(next) => setGroup(g, next)} fields={fields} errors={errors} interactive />
                  <div className="dialog-actions">
                    <button type="button" className="btn btn-primary" onClick={() => andRefs.current[g]?.close()}>
                      {T.done}
                    </button>
                  </div>
                </dialog>
              </>
            ) : (
              <>
                <AndGroup name={name} g={g} group={group} onChange={(next) => setGroup(g, next)} fields={fields} errors={errors} interactive={false} />
                <button type="submit" name="intent" value={`${name}:removeGroup:${g}`} className="btn btn-secondary btn-small">
                  {T.removeGroup(g + 1)}
                </button>
              </>
            )}
          </li>
        ))}
      </ol>
      <div className="conditions-actions">
        {groups.length < WORKFLOW_LIMITS.predicateGroups ? (
          interactive ? (
            <button type="button" className="btn btn-secondary" onClick={addGroup}>
              {T.addGroup}
            </button>
          ) : (
            <button type="submit" name="intent" value={`${name}:addGroup`} className="btn btn-secondary">
              {T.addGroup}
            </button>
          )
        ) : null}
        {interactive ? (
          <button type="button" className="btn btn-primary" onClick={(e) => e.currentTarget.closest("dialog")?.close()}>
            {T.done}
          </button>
        ) : groups.length ? (
          <>
            <button type="submit" name="intent" value={`${name}:apply`} className="btn btn-secondary" aria-describedby={`${idOf(name)}-apply-hint`}>
              {T.apply}
            </button>
            <p className="field-hint" id={`${idOf(name)}-apply-hint`}>
              {T.applyHint}
            </p>
          </>
        ) : null}
      </div>
    </section>
  );
}

function AndGroup({
  name,
  g,
  group,
  onChange,
  fields,
  errors,
  interactive,
}: {
  name: string;
  g: number;
  group: ConditionDraft[];
  onChange: (group: ConditionDraft[]) => void;
  fields: readonly ContractField[];
  errors: Errors;
  interactive: boolean;
}) {
  const set = (i: number, c: ConditionDraft) => onChange(group.map((x, j) => (j === i ? c : x)));
  const Heading = interactive ? "h3" : "h4";
  return (
    <section className="conditions-and" aria-labelledby={`${idOf(name)}-and-${g}-title`}>
      <Heading id={`${idOf(name)}-and-${g}-title`}>
        {T.editAnd}
        <span className="visually-hidden"> ({T.group(g + 1)})</span>
      </Heading>
      {group.length === 0 ? <p className="field-hint">{T.emptyGroup}</p> : null}
      {group.map((c, i) => (
        <ConditionRow
          key={i}
          base={`${name}.${g}.${i}`}
          n={i + 1}
          condition={c}
          onChange={(next) => set(i, next)}
          onRemove={() => onChange(group.filter((_, j) => j !== i))}
          removeIntent={`${name}:removeCondition:${g}:${i}`}
          fields={fields}
          errors={errors}
          interactive={interactive}
        />
      ))}
      {group.length < WORKFLOW_LIMITS.predicatesPerGroup ? (
        interactive ? (
          <button type="button" className="btn btn-secondary" onClick={() => onChange([...group, EMPTY_CONDITION])}>
            {T.addCondition}
          </button>
        ) : (
          <button type="submit" name="intent" value={`${name}:addCondition:${g}`} className="btn btn-secondary">
            {T.addCondition}
          </button>
        )
      ) : null}
    </section>
  );
}

function ConditionRow({
  base,
  n,
  condition: c,
  onChange,
  onRemove,
  removeIntent,
  fields,
  errors,
  interactive,
}: {
  base: string;
  n: number;
  condition: ConditionDraft;
  onChange: (c: ConditionDraft) => void;
  onRemove: () => void;
  removeIntent: string;
  fields: readonly ContractField[];
  errors: Errors;
  interactive: boolean;
}) {
  const type = fieldOf(fields, c.field)?.type;
  // Without JavaScript the function list cannot follow a new field until Apply: offer every function then.
  const functions = type ? functionsFor(type) : interactive ? [] : PREDICATE_FUNCTIONS;
  const kind = valueKind(c.function, type);
  return (
    <fieldset className="condition-row">
      <legend>{T.condition(n)}</legend>
      {/* What the page showed, so that a post without JavaScript applies §2.5's resets (model.ts reconcile). */}
      <input type="hidden" name={`${base}.prevField`} value={c.field} />
      <input type="hidden" name={`${base}.prevFunction`} value={c.function} />
      <SelectInput
        name={`${base}.field`}
        label={T.field}
        value={c.field}
        onValue={(field) => onChange(withField(c, field, fields))}
        errors={errors}
        placeholder={T.chooseField}
        options={fields.map((f) => ({ value: placeholderOf(f.name), label: `${placeholderOf(f.name)} (${f.type})` }))}
      />
      <SelectInput
        name={`${base}.function`}
        label={T.function}
        value={c.function}
        onValue={(fn) => onChange(withFunction(c, fn))}
        errors={errors}
        options={functions.map((f) => ({ value: f.name, label: f.description }))}
      />
      {kind === "text" || kind === "number" ? (
        <InputField
          name={`${base}.value`}
          label={T.value}
          value={c.value}
          onValue={(value) => onChange({ ...c, value })}
          errors={errors}
          inputMode={kind === "number" ? "decimal" : undefined}
          autoComplete="off"
        />
      ) : kind === "boolean" ? (
        <SelectInput
          name={`${base}.value`}
          label={T.value}
          value={c.value}
          onValue={(value) => onChange({ ...c, value })}
          errors={errors}
          placeholder=""
          options={[
            { value: "true", label: T.yes },
            { value: "false", label: T.no },
          ]}
        />
      ) : kind === "list" ? (
        <InputField
          name={`${base}.value`}
          label={T.values}
          value={c.value}
          onValue={(value) => onChange({ ...c, value })}
          errors={errors}
          hint={T.valuesHint}
          autoComplete="off"
        />
      ) : kind === "date" ? (
        <DueDateParts name={`${base}.due`} value={c.due} onChange={(due) => onChange({ ...c, due })} fields={fields} errors={errors} />
      ) : null}
      {interactive ? (
        <button type="button" className="btn btn-secondary btn-small" onClick={onRemove}>
          {T.removeCondition(n)}
        </button>
      ) : (
        <button type="submit" name="intent" value={removeIntent} className="btn btn-secondary btn-small">
          {T.removeCondition(n)}
        </button>
      )}
    </fieldset>
  );
}
