/**
 * The template editor's canvas (spec 3 §2.6): @xyflow/react over the template document. It keeps no graph of its own:
 * the document is the state, every change is a graph edit applied by the model's `applyEdit` (the same operation the
 * table editor posts), and undo/redo is a stack of documents (history.ts). Loaded only by this route, after hydration,
 * over the server-rendered table (CanvasMount.tsx); the keyboard, the dock and the live region are described in
 * docs/decisions/template-editor.md "Canvas".
 */
import {
  Background,
  Controls,
  Handle,
  MiniMap,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type Connection,
  type Edge,
  type EdgeChange,
  type NodeProps,
  type OnSelectionChangeParams,
} from "@xyflow/react";
import flowStyles from "@xyflow/react/dist/style.css";
import { useBeforeUnload, useBlocker, useNavigation } from "@remix-run/react";
import { memo, useCallback, useEffect, useMemo, useRef, useState, type DragEvent, type FormEvent, type KeyboardEvent as ReactKeyboardEvent } from "react";
import { GRAPH_MESSAGES, canConnect } from "@contract/graph";
import type { TemplateContent } from "@contract/milestone-templates";
import type { StepType } from "@contract/workflow-constants";
import { openModal } from "~/ui/modal";
import { EDITOR } from "../texts";
import type { FormReply } from "../forms/common";
import { AlternativesForm } from "../forms/AlternativesForm";
import { ALTERNATIVE_FIELDS } from "../forms/alternatives";
import { PathForm } from "../forms/PathForm";
import { StepForm } from "../forms/StepForm";
import { alternativesStructure, editsOfForm } from "../forms/parse";
import canvasStyles from "./canvas.css";
import { copySteps, pasteClip, type Clip } from "./clipboard";
import { applyEdit, applyEditInput, newStepId, type EditContext, type GraphEdit } from "@contract/graph-edits";
import { dropConnection, editorForConnection, hasForm, keepConnection, newConnectionEdit, type PendingConnection } from "./connect";
import { DOCK_SOURCES, DOCK_STEPS, addStepEdit, deleteEdit, moveEdit, pasteEdit } from "./edits";
import { canRedo, canUndo, historyOf, reconcile, record, redo, undo, type History } from "./history";
import { commandOf } from "./keys";
import { PanelContent, panelOfHash, panelTitle, type Panel } from "./Panels";
import { CANVAS, STEP_TYPE_LABELS } from "./texts";
import { DEFAULT_PORT, NODE_HEIGHT, NODE_WIDTH, edgesOf, nodesOf, pathIndexOf, type StepNode, type TaskCounts, type Visibility } from "./view";

export type CanvasProps = {
  /** The saved template document the editor opened. */
  doc: TemplateContent;
  /** Task counts by status per step id; null while unknown (deleting a task step then waits). */
  statistics: TaskCounts | null;
  /** Whether the user may change the template (the workflows permission). */
  canWrite: boolean;
  /** Called once the canvas has mounted: the table editor under it then goes. */
  onReady?: () => void;
};

/** The fit: the graph fills at most 90% of the view, never magnified beyond its natural size. */
const FIT = { maxZoom: 1, padding: 0.1 } as const;
const DRAG_TYPE = "application/x-template-step";
const EDIT_FORM_ID = "canvas-edit";
/** What the edit modal holds: a step's form, a connection's, or one of the header's panels. */
type Editing = { step: string } | { path: number } | { panel: Panel };

const FlowStepNode = memo(function FlowStepNode({ data, selected }: NodeProps<StepNode>) {
  return (
    <div className={`canvas-node canvas-node-${data.type}${selected ? " is-selected" : ""}`}>
      {data.accepts ? <Handle type="target" position={Position.Left} id="in" /> : null}
      <div className="canvas-node-title">{data.title || "(untitled)"}</div>
      <div className="canvas-node-meta">
        <span>{data.typeLabel}</span>
        {data.hours !== null ? <span>{CANVAS.duration(data.hours)}</span> : null}
        {data.onRoadmap ? (
          <span className="canvas-node-roadmap" title={CANVAS.roadmap}>
            <span aria-hidden="true">⚑</span>
            <span className="visually-hidden">{CANVAS.roadmap}</span>
          </span>
        ) : null}
      </div>
      {data.counts?.length ? (
        <ul className="canvas-node-counts" aria-label={CANVAS.counts}>
          {data.counts.map((c) => (
            <li key={c.status} className={`count-${c.status}`}>
              {c.status} {c.label}
            </li>
          ))}
        </ul>
      ) : null}
      {data.ports.map((port, i) => (
        <Handle
          key={port}
          type="source"
          position={Position.Right}
          id={port}
          title={port === DEFAULT_PORT ? undefined : port}
          style={{ top: `${((i + 1) * 100) / (data.ports.length + 1)}%` }}
        />
      ))}
    </div>
  );
});

const nodeTypes = { step: FlowStepNode };

export default function TemplateCanvas({ onReady, ...props }: CanvasProps) {
  const ready = useRef(onReady);
  useEffect(() => ready.current?.(), []);
  return (
    <ReactFlowProvider>
      <link rel="stylesheet" href={flowStyles} />
      <link rel="stylesheet" href={canvasStyles} />
      <CanvasEditor {...props} />
    </ReactFlowProvider>
  );
}

function CanvasEditor({ doc: initial, statistics, canWrite }: CanvasProps) {
  const flow = useReactFlow();
  const [history, setHistory] = useState<History<TemplateContent>>(() => historyOf(initial));
  const [saved, setSaved] = useState(initial);
  const doc = history.present;
  const dirty = doc !== saved;
  const [visible, setVisible] = useState<Visibility>({ workflow: true, eventSources: true });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [selectedEdges, setSelectedEdges] = useState<readonly string[]>([]);
  const [message, setMessage] = useState("");
  const [connectFrom, setConnectFrom] = useState<string | null>(null);
  const clip = useRef<{ clip: Clip; times: number } | null>(null);
  const wrapper = useRef<HTMLDivElement>(null);
  const focusAfter = useRef<string | null>(null);
  /** Save & Activate is in flight: its answer navigates away, and that navigation must not ask. */
  const leaving = useRef(false);

  // A document from the server: unsaved work survives a revalidation that changed nothing of the graph (reconcile).
  const lastInitial = useRef(initial);
  const present = useRef(doc);
  present.current = doc;
  useEffect(() => {
    const verdict = reconcile(lastInitial.current, initial, present.current);
    lastInitial.current = initial;
    if (verdict === "saved") setSaved(present.current);
    else if (verdict === "reset") {
      setHistory(historyOf(initial));
      setSaved(initial);
    }
  }, [initial]);

  const announce = useCallback((text: string) => {
    // The same sentence twice in a row is still announced: the region is emptied first.
    setMessage("");
    requestAnimationFrame(() => setMessage(text));
  }, []);

  const editContext = useMemo<EditContext>(() => ({ statistics: (id) => (statistics ? (statistics[id] ?? []) : null) }), [statistics]);
  const apply = useCallback(
    (edit: GraphEdit, done: (next: TemplateContent) => string) => {
      const result = applyEdit(history.present, edit, editContext);
      if (!result.ok) {
        announce(CANVAS.announce.refused(result.message));
        return false;
      }
      setHistory((h) => record(h, result.doc));
      announce(done(result.doc));
      return true;
    },
    [history.present, editContext, announce],
  );

  const titleOf = useCallback((id: string) => {
    const step = doc.steps.find((s) => s.id === id);
    return step?.title || (step ? STEP_TYPE_LABELS[step.type] : id);
  }, [doc]);

  // The nodes are xyflow's own (uncontrolled), set from the document whenever it changes: a drag moves them inside
  // xyflow frame by frame without rendering this editor again, and reaches the document once, when it ends (one
  // edit, one undo). Rendering the editor on every mouse move was most of a drag's time at 300 steps.
  const baseNodes = useMemo(() => nodesOf(doc, statistics, selected), [doc, statistics, selected]);
  const [firstNodes] = useState(baseNodes);
  const shownNodes = useRef(baseNodes);
  useEffect(() => {
    if (shownNodes.current === baseNodes) return;
    shownNodes.current = baseNodes;
    flow.setNodes(baseNodes);
  }, [baseNodes, flow]);
  /** Bumped when focus must move to `focusAfter` without the nodes changing (a dialog closed). */
  const [focusTick, setFocusTick] = useState(0);
  const edges = useMemo(
    () =>
      edgesOf(doc, visible).map((e) => ({
        ...e,
        selected: selectedEdges.includes(e.id),
        ariaLabel: CANVAS.edgeLabel(titleOf(e.source), titleOf(e.target)),
      })),
    [doc, visible, titleOf, selectedEdges],
  );
  // Edges are the document's; only their selection is the canvas's.
  const onEdgesChange = useCallback((changes: EdgeChange[]) => {
    const picks = changes.filter((c) => c.type === "select");
    if (!picks.length) return;
    setSelectedEdges((before) => {
      const next = new Set(before);
      for (const c of picks) {
        if (c.selected) next.add(c.id);
        else next.delete(c.id);
      }
      return [...next];
    });
  }, []);

  // xyflow renders a node a frame or two after it reaches its store: focus waits for the element.
  useEffect(() => {
    const id = focusAfter.current;
    if (!id) return;
    let frame = 0;
    let tries = 0;
    const attempt = () => {
      const el = wrapper.current?.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`);
      if (el) {
        if (focusAfter.current === id) focusAfter.current = null;
        el.focus();
      } else if (++tries < 30) frame = requestAnimationFrame(attempt);
    };
    attempt();
    return () => cancelAnimationFrame(frame);
  }, [baseNodes, focusTick]);

  const onNodeDragStop = useCallback(
    (_event: unknown, _node: StepNode, dragged: StepNode[]) => {
      const moves = dragged.map((n) => ({ id: n.id, position: { x: Math.round(n.position.x), y: Math.round(n.position.y) } }));
      const changed = moves.filter((m) => {
        const step = doc.steps.find((s) => s.id === m.id);
        return step && (step.display.position.x !== m.position.x || step.display.position.y !== m.position.y);
      });
      if (!changed.length) return;
      apply(moveEdit(changed), () =>
        changed.length === 1 ? CANVAS.announce.moved(titleOf(changed[0]!.id), changed[0]!.position.x, changed[0]!.position.y) : CANVAS.announce.selected(changed.length),
      );
    },
    [doc, apply, titleOf],
  );

  const onSelectionChange = useCallback(({ nodes: picked }: OnSelectionChangeParams) => {
    setSelected((before) => {
      const next = new Set(picked.map((n) => n.id));
      return next.size === before.size && [...next].every((id) => before.has(id)) ? before : next;
    });
  }, []);

  // Enter on a step or a connection opens the table editor's own form for it in a modal; its submit is read here as
  // the same edits the server would make of it (editsOfForm), applied locally as one change (one undo).
  // A new connection's editor holds it pending (connect.ts): its outcome keeps or drops it as one history step.
  const [editing, setEditing] = useState<Editing | null>(null);
  /** Bumped by each change applied in a panel: its forms start again from the document. */
  const [panelVersion, setPanelVersion] = useState(0);
  const panelFocus = useRef<string | null>(null);
  const [reply, setReply] = useState<FormReply>(null);
  const editDialog = useRef<HTMLDialogElement>(null);
  const pending = useRef<PendingConnection<TemplateContent> | null>(null);
  /** Where focus goes back to when the modal closes: what had it when the modal opened. */
  const returnFocus = useRef<HTMLElement | null>(null);
  const openEditor = useCallback((target: Editing, connection?: PendingConnection<TemplateContent>) => {
    pending.current = connection ?? null;
    returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setReply(null);
    setEditing(target);
  }, []);
  useEffect(() => {
    if (!editing) return;
    openModal(editDialog.current);
    // A connection from the nowhere port opens on its form.
    if (pending.current?.editor === "form") editDialog.current?.querySelector<HTMLElement>('[name="formName"]')?.focus();
    else if (!pending.current) announce(CANVAS.announce.opened("panel" in editing ? panelTitle(editing.panel) : CANVAS.editTitle));
    // Only when the modal opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editing]);
  /** Closes the modal; a pending connection left this way (Cancel, Escape) is removed. */
  const closeEditor = useCallback(() => {
    if (editing && "panel" in editing) announce(CANVAS.announce.closed(panelTitle(editing.panel)));
    const connection = pending.current;
    pending.current = null;
    if (connection) {
      setHistory(dropConnection(connection));
      announce(CANVAS.announce.connectionCancelled(titleOf(connection.from), titleOf(connection.to)));
      focusAfter.current = connection.from;
    } else if (editing && "step" in editing) focusAfter.current = editing.step;
    else if (returnFocus.current?.isConnected) returnFocus.current.focus();
    editDialog.current?.close();
    setEditing(null);
    setFocusTick((t) => t + 1);
  }, [editing, announce, titleOf]);
  const onEditSubmit = useCallback(
    (event: FormEvent<HTMLDivElement>) => {
      // Before the form's own (server) submit: the canvas keeps the change until Save.
      event.preventDefault();
      event.stopPropagation();
      const form = event.target as HTMLFormElement;
      const data = new FormData(form, (event.nativeEvent as SubmitEvent).submitter);
      const formId = typeof data.get("form") === "string" ? String(data.get("form")) : EDIT_FORM_ID;
      // A structural button (Add alternative, the conditions editor's): the form comes back edited, as without JavaScript.
      const structural = alternativesStructure(data, doc);
      if (structural) return setReply({ form: formId, values: structural });
      const edits = editsOfForm(data, doc);
      const refuse = (message: string) => setReply({ form: formId, message, values: Object.fromEntries([...data].filter((e): e is [string, string] => typeof e[1] === "string")) });
      const connection = pending.current;
      // A connection from the nowhere port saved without a form goes (spec 3 §4.1), saying why.
      const dropFormless = () => {
        if (!connection) return;
        pending.current = null;
        closeEditor();
        focusAfter.current = connection.from;
        setHistory(dropConnection(connection));
        announce(CANVAS.announce.connectionNeedsForm(titleOf(connection.from), titleOf(connection.to), GRAPH_MESSAGES.nowherePortNeedsForm));
      };
      if (typeof edits === "string") return refuse(edits);
      let next = doc;
      for (const edit of edits) {
        const result = applyEditInput(next, edit, editContext);
        if (!result.ok) return connection?.editor === "form" && result.message === GRAPH_MESSAGES.nowherePortNeedsForm ? dropFormless() : refuse(result.message);
        next = result.doc;
      }
      if (connection?.editor === "form" && !hasForm(next.paths.find((p) => p.from.step === connection.from && p.to.step === connection.to))) return dropFormless();
      pending.current = null;
      if (connection) setHistory(keepConnection(connection, next));
      else if (next !== doc) setHistory((h) => record(h, next));
      // A list's panel (variables, the roadmap) stays open for the next change, its forms fresh; focus stays in the form.
      if (editing && "panel" in editing && editing.panel !== "properties") {
        setReply(null);
        panelFocus.current = formId;
        setPanelVersion((v) => v + 1);
        announce(CANVAS.announce.edited(panelTitle(editing.panel)));
        return;
      }
      const title = editing && "step" in editing ? titleOf(editing.step) : editing && "panel" in editing ? panelTitle(editing.panel) : CANVAS.connection;
      closeEditor();
      if (connection) focusAfter.current = connection.from;
      announce(connection ? CANVAS.announce.connectionKept(titleOf(connection.from), titleOf(connection.to)) : CANVAS.announce.edited(title));
    },
    [doc, editing, editContext, titleOf, closeEditor, announce],
  );
  // After a change in a panel: back into the same form (its first field), else (a deleted row) the panel's heading.
  useEffect(() => {
    const id = panelFocus.current;
    if (!id) return;
    panelFocus.current = null;
    const field = editDialog.current?.querySelector<HTMLElement>(`form[id="${CSS.escape(id)}"] :is(input:not([type=hidden]), select, textarea)`);
    if (field && field.getClientRects().length) field.focus();
    else editDialog.current?.querySelector<HTMLElement>("#canvas-panel-title")?.focus();
  }, [panelVersion]);

  // The header's Variables, Define/Edit roadmap and Properties (anchors of the tables without JavaScript) open their
  // panel here instead.
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      const panel = panelOfHash(link?.getAttribute("href") ?? null);
      if (!panel) return;
      event.preventDefault();
      openEditor({ panel });
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [openEditor]);

  /**
   * A new connection (spec 3 §4.1): refused with the model's reason, made at once when it needs no editing, else made
   * pending and its editor opened ("editing"), which keeps or drops it (connect.ts).
   */
  const connect = useCallback(
    (from: string, to: string, port?: string): boolean | "editing" => {
      const verdict = canConnect(doc, from, to);
      if (!verdict.ok) {
        announce(CANVAS.announce.refused(verdict.reason));
        return false;
      }
      const named = port && port !== DEFAULT_PORT ? port : undefined;
      const editor = editorForConnection(doc, to, named);
      const before = history;
      const index = doc.paths.length;
      const made = apply(newConnectionEdit(from, to, named), () =>
        editor === "none" ? CANVAS.announce.connected(titleOf(from), titleOf(to)) : CANVAS.announce.connectionEditing(titleOf(from), titleOf(to)),
      );
      if (!made || editor === "none") return made;
      openEditor({ path: index }, { before, from, to, editor });
      return "editing";
    },
    [doc, history, apply, announce, titleOf, openEditor],
  );

  const onConnect = useCallback(
    (c: Connection) => {
      if (c.source && c.target) connect(c.source, c.target, c.sourceHandle ?? undefined);
    },
    [connect],
  );

  const insert = useCallback(
    (type: StepType, at?: { x: number; y: number }) => {
      let position = at;
      if (!position) {
        const box = wrapper.current?.querySelector(".react-flow")?.getBoundingClientRect();
        const center = box ? flow.screenToFlowPosition({ x: box.left + box.width / 2, y: box.top + box.height / 2 }) : { x: 0, y: 0 };
        position = { x: Math.round(center.x - NODE_WIDTH / 2), y: Math.round(center.y - NODE_HEIGHT / 2) };
      }
      const id = newStepId(doc, type);
      const ok = apply(addStepEdit(id, type, position), () => CANVAS.announce.inserted(STEP_TYPE_LABELS[type]));
      if (ok) focusAfter.current = id;
    },
    [doc, apply, flow],
  );

  const remove = useCallback(
    (stepIds: readonly string[], pathIndexes: readonly number[]) => {
      const refs = pathIndexes.flatMap((i) => (doc.paths[i] ? [{ from: doc.paths[i].from.step, to: doc.paths[i].to.step }] : []));
      if (!stepIds.length && !refs.length) return;
      // The model refuses a step with open tasks (or whose counts are not loaded yet), naming it.
      // Edge ids are path positions, which a deletion shifts.
      if (apply(deleteEdit(stepIds, refs), () => CANVAS.announce.deleted(stepIds.length + refs.length))) setSelectedEdges([]);
    },
    [doc, apply],
  );

  const doUndo = useCallback(() => {
    if (!canUndo(history)) return announce(CANVAS.announce.nothingToUndo);
    setHistory(undo);
    announce(CANVAS.announce.undone);
  }, [history, announce]);
  const doRedo = useCallback(() => {
    if (!canRedo(history)) return announce(CANVAS.announce.nothingToRedo);
    setHistory(redo);
    announce(CANVAS.announce.redone);
  }, [history, announce]);

  const copy = useCallback(() => {
    const copied = copySteps(doc, selected);
    if (!copied) return;
    clip.current = { clip: copied, times: 0 };
    announce(CANVAS.announce.copied(copied.steps.length));
  }, [doc, selected, announce]);

  const paste = useCallback(() => {
    if (!clip.current) return announce(CANVAS.announce.nothingToPaste);
    const times = clip.current.times + 1;
    const pasted = pasteClip(clip.current.clip, doc.steps.map((s) => s.id), (taken) => newStepId({ steps: [...taken].map((id) => ({ id })) }, "task"), times);
    if (apply(pasteEdit(pasted.steps, pasted.paths), () => CANVAS.announce.pasted(pasted.steps.length))) {
      clip.current = { ...clip.current, times };
      setSelected(new Set(pasted.steps.map((s) => s.id)));
    }
  }, [doc, apply, announce]);

  const onKeyDown = useCallback(
    (event: ReactKeyboardEvent<HTMLDivElement>) => {
      const target = event.target as HTMLElement;
      if (target.closest("input, textarea, select, button, dialog, [contenteditable='true']")) return;
      const command = commandOf(event);
      if (!command) return;
      const nodeId = target.closest<HTMLElement>(".react-flow__node")?.dataset.id ?? null;
      const edgeId = target.closest<HTMLElement>(".react-flow__edge")?.dataset.id ?? null;
      const handled = () => {
        event.preventDefault();
        event.stopPropagation();
      };
      switch (command.kind) {
        case "undo":
          if (!canWrite) return;
          handled();
          return doUndo();
        case "redo":
          if (!canWrite) return;
          handled();
          return doRedo();
        case "copy":
          handled();
          return copy();
        case "paste":
          if (!canWrite) return;
          handled();
          return paste();
        case "selectAll":
          handled();
          setSelected(new Set(doc.steps.map((s) => s.id)));
          return announce(CANVAS.announce.selected(doc.steps.length));
        case "deselect":
          if (!selected.size) return;
          handled();
          return setSelected(new Set());
        case "move": {
          if (!nodeId || !canWrite) return;
          handled();
          const ids = selected.has(nodeId) ? [...selected] : [nodeId];
          const moves = doc.steps
            .filter((s) => ids.includes(s.id))
            .map((s) => ({ id: s.id, position: { x: s.display.position.x + command.dx, y: s.display.position.y + command.dy } }));
          const focused = moves.find((m) => m.id === nodeId)!;
          focusAfter.current = nodeId;
          apply(moveEdit(moves), () => CANVAS.announce.moved(titleOf(nodeId), focused.position.x, focused.position.y));
          return;
        }
        case "edit": {
          if (!canWrite) return;
          const path = edgeId ? pathIndexOf(edgeId) : -1;
          if (!nodeId && path < 0) return;
          handled();
          openEditor(nodeId ? { step: nodeId } : { path });
          return;
        }
        case "connect":
          if (!nodeId || !canWrite) return;
          handled();
          setConnectFrom(nodeId);
          return;
        case "delete": {
          if (!canWrite) return;
          handled();
          const stepIds = nodeId && !selected.has(nodeId) ? [nodeId] : [...selected];
          const pathIndexes = [...new Set([...(edgeId ? [edgeId] : []), ...selectedEdges])].map(pathIndexOf).filter((i) => i >= 0);
          remove(stepIds, pathIndexes);
          return;
        }
      }
    },
    [canWrite, doc, selected, selectedEdges, apply, announce, copy, paste, doUndo, doRedo, openEditor, remove, titleOf],
  );

  const onDrop = useCallback(
    (event: DragEvent<HTMLDivElement>) => {
      const type = event.dataTransfer.getData(DRAG_TYPE) as StepType;
      if (!type || !canWrite) return;
      event.preventDefault();
      const at = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
      insert(type, { x: Math.round(at.x - NODE_WIDTH / 2), y: Math.round(at.y - NODE_HEIGHT / 2) });
    },
    [flow, insert, canWrite],
  );

  const layout = useCallback(async () => {
    try {
      const { layoutPositions } = await import("./layout.client");
      const positions = await layoutPositions(doc);
      const moves = [...positions].map(([id, position]) => ({ id, position }));
      if (apply(moveEdit(moves), () => CANVAS.announce.laidOut)) requestAnimationFrame(() => void flow.fitView(FIT));
    } catch {
      announce(CANVAS.announce.layoutFailed);
    }
  }, [doc, apply, announce, flow]);

  // Saving is the page's Save and Save & Activate (the same forms as without JavaScript): their posts carry the
  // canvas's whole document, added to the form's data as it is read (the `formdata` event), so the server saves what
  // the canvas shows. The answer's fresh document then restarts the history above.
  const current = useRef(doc);
  current.current = doc;
  useEffect(() => {
    const onFormData = (event: FormDataEvent) => {
      const intent = event.formData.get("intent");
      if (intent !== "save" && intent !== "save-activate") return;
      event.formData.set("document", JSON.stringify(current.current));
      // Save & Activate's answer leads back to the workflow: that navigation must not ask.
      leaving.current = intent === "save-activate";
    };
    document.addEventListener("formdata", onFormData, true);
    return () => document.removeEventListener("formdata", onFormData, true);
  }, []);
  const navigation = useNavigation();
  useEffect(() => {
    if (navigation.state === "idle") leaving.current = false;
  }, [navigation.state]);

  // Leaving with unsaved changes asks first: in the app (a route blocker), and when the tab closes or reloads.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && !leaving.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useBeforeUnload(
    useCallback(
      (event: BeforeUnloadEvent) => {
        if (!dirty) return;
        event.preventDefault();
        event.returnValue = "";
      },
      [dirty],
    ),
  );
  const leaveDialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (blocker.state === "blocked") openModal(leaveDialog.current);
    else leaveDialog.current?.close();
  }, [blocker.state]);

  const connectDialog = useRef<HTMLDialogElement>(null);
  const [target, setTarget] = useState("");
  const targets = useMemo(
    () => (connectFrom ? doc.steps.filter((s) => canConnect(doc, connectFrom, s.id).ok) : []),
    [doc, connectFrom],
  );
  useEffect(() => {
    if (!connectFrom) return;
    if (!targets.length) {
      announce(CANVAS.announce.refused(CANVAS.noTargets));
      setConnectFrom(null);
      return;
    }
    setTarget(targets[0]!.id);
    openModal(connectDialog.current);
    // Only when a connection starts: the targets follow the document, which does not change while the dialog is open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [connectFrom]);
  const closeConnect = (done: boolean) => {
    const from = connectFrom;
    connectDialog.current?.close();
    setConnectFrom(null);
    const made = from && done && target ? connect(from, target) : false;
    // A connection whose editor opened returns focus when that editor closes.
    if (from && made !== "editing") focusAfter.current = from;
    setFocusTick((t) => t + 1);
  };

  const fitOnce = useRef(false);
  const onInit = useCallback(() => {
    if (fitOnce.current) return;
    fitOnce.current = true;
    void flow.fitView(FIT);
  }, [flow]);

  return (
    <section className="template-canvas" aria-label={CANVAS.region}>
      <div className="canvas-toolbar" role="toolbar" aria-label={CANVAS.tools}>
        <fieldset className="canvas-show">
          <legend>{CANVAS.showConnections}</legend>
          <label>
            <input type="checkbox" checked={visible.workflow} onChange={(e) => setVisible((v) => ({ ...v, workflow: e.currentTarget.checked }))} />{" "}
            {CANVAS.showWorkflow}
          </label>
          <label>
            <input
              type="checkbox"
              checked={visible.eventSources}
              onChange={(e) => setVisible((v) => ({ ...v, eventSources: e.currentTarget.checked }))}
            />{" "}
            {CANVAS.showEventSources}
          </label>
        </fieldset>
        {canWrite ? (
          <>
            <button type="button" className="btn btn-secondary" onClick={doUndo} aria-disabled={!canUndo(history)} aria-keyshortcuts="Control+Z">
              {CANVAS.undo}
            </button>
            <button type="button" className="btn btn-secondary" onClick={doRedo} aria-disabled={!canRedo(history)} aria-keyshortcuts="Control+Shift+Z">
              {CANVAS.redo}
            </button>
            <button type="button" className="btn btn-secondary" onClick={() => void layout()}>
              {CANVAS.autoLayout}
            </button>
          </>
        ) : null}
        <button type="button" className="btn btn-secondary" onClick={() => void flow.fitView(FIT)}>
          {CANVAS.fitView}
        </button>
        {dirty ? <span className="canvas-dirty">{CANVAS.unsaved}</span> : null}
      </div>
      <div className="canvas-body">
        {canWrite ? (
          <nav className="canvas-dock" aria-label={CANVAS.dock}>
            <p className="field-hint">{CANVAS.dockHint}</p>
            {[
              [CANVAS.dockSteps, DOCK_STEPS],
              [CANVAS.dockSources, DOCK_SOURCES],
            ].map(([heading, types]) => (
              <div key={heading as string}>
                <h3>{heading as string}</h3>
                <ul>
                  {(types as readonly StepType[]).map((type) => (
                    <li key={type}>
                      <button
                        type="button"
                        className="canvas-dock-item"
                        draggable
                        onDragStart={(e) => {
                          e.dataTransfer.setData(DRAG_TYPE, type);
                          e.dataTransfer.effectAllowed = "copy";
                        }}
                        onClick={() => insert(type)}
                        aria-label={CANVAS.insert(STEP_TYPE_LABELS[type])}
                      >
                        {STEP_TYPE_LABELS[type]}
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </nav>
        ) : null}
        <div
          className="canvas-flow"
          ref={wrapper}
          onKeyDown={onKeyDown}
          onDragOver={(e) => {
            if (e.dataTransfer.types.includes(DRAG_TYPE)) {
              e.preventDefault();
              e.dataTransfer.dropEffect = "copy";
            }
          }}
          onDrop={onDrop}
        >
          <ReactFlow<StepNode, Edge>
            defaultNodes={firstNodes}
            edges={edges}
            nodeTypes={nodeTypes}
            onEdgesChange={onEdgesChange}
            onNodeDragStop={onNodeDragStop}
            onSelectionChange={onSelectionChange}
            onConnect={onConnect}
            onNodeDoubleClick={(_e, node) => canWrite && openEditor({ step: node.id })}
            onEdgeDoubleClick={(_e, edge) => canWrite && pathIndexOf(edge.id) >= 0 && openEditor({ path: pathIndexOf(edge.id) })}
            zoomOnDoubleClick={false}
            onInit={onInit}
            nodesDraggable={canWrite}
            nodesConnectable={canWrite}
            edgesFocusable
            deleteKeyCode={null}
            disableKeyboardA11y
            minZoom={0.1}
            maxZoom={2}
            aria-label={CANVAS.region}
            aria-describedby="canvas-hint"
            proOptions={{ hideAttribution: true }}
          >
            <Background />
            <Controls showInteractive={false} />
            <MiniMap pannable zoomable ariaLabel={CANVAS.minimap} />
          </ReactFlow>
        </div>
      </div>
      <p id="canvas-hint" className="field-hint">
        {CANVAS.regionHint}
      </p>
      <p className="canvas-status" role="status" aria-live="polite">
        {message}
      </p>
      <dialog ref={connectDialog} className="confirm-dialog" aria-labelledby="canvas-connect-title" onClose={() => connectFrom && closeConnect(false)}>
        <h2 id="canvas-connect-title">{connectFrom ? CANVAS.connectTitle(titleOf(connectFrom)) : ""}</h2>
        <div className="field">
          <label htmlFor="canvas-connect-target">{CANVAS.connectTarget}</label>
          <select id="canvas-connect-target" value={target} onChange={(e) => setTarget(e.currentTarget.value)} data-initial-focus>
            {targets.map((s) => (
              <option key={s.id} value={s.id}>
                {`${s.title || STEP_TYPE_LABELS[s.type]} (${STEP_TYPE_LABELS[s.type]})`}
              </option>
            ))}
          </select>
        </div>
        <div className="confirm-actions">
          <button type="button" className="btn btn-primary" onClick={() => closeConnect(true)}>
            {CANVAS.connect}
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => closeConnect(false)}>
            {EDITOR.cancel}
          </button>
        </div>
      </dialog>
      <dialog
        ref={editDialog}
        className="url-dialog"
        aria-label={pending.current ? CANVAS.newConnectionTitle : editing && "panel" in editing ? panelTitle(editing.panel) : CANVAS.editTitle}
        // The conditions editor's own dialogs inside (Properties' events) close too; React passes their close up here.
        onClose={(event) => event.target === event.currentTarget && editing && closeEditor()}
      >
        <div onSubmitCapture={onEditSubmit}>
          {editing && "step" in editing && doc.steps.some((s) => s.id === editing.step) ? (
            <StepForm doc={doc} step={doc.steps.find((s) => s.id === editing.step)} reply={reply} id={EDIT_FORM_ID} />
          ) : editing && "path" in editing && doc.paths[editing.path] ? (
            <>
              <PathForm doc={doc} path={doc.paths[editing.path]} reply={reply} id={EDIT_FORM_ID} />
              {/* The to-action's conditional alternatives (spec 3 §3 Path), one form per field as in the tables. */}
              <details className="canvas-alternatives" open={ALTERNATIVE_FIELDS.some((f) => reply?.form === `${EDIT_FORM_ID}-alt-${f}`)}>
                <summary>{CANVAS.alternatives}</summary>
                {ALTERNATIVE_FIELDS.map((f) => (
                  <AlternativesForm key={f} doc={doc} path={doc.paths[editing.path]!} field={f} reply={reply} id={`${EDIT_FORM_ID}-alt-${f}`} />
                ))}
              </details>
            </>
          ) : editing && "panel" in editing ? (
            <div key={panelVersion} className="canvas-panel">
              <h2 id="canvas-panel-title" tabIndex={-1}>
                {panelTitle(editing.panel)}
              </h2>
              <PanelContent panel={editing.panel} doc={doc} reply={reply} canWrite={canWrite} />
            </div>
          ) : null}
        </div>
        <button type="button" className="btn btn-secondary" onClick={closeEditor}>
          {editing && "panel" in editing ? CANVAS.close : EDITOR.cancel}
        </button>
      </dialog>
      <dialog ref={leaveDialog} className="confirm-dialog" aria-labelledby="canvas-leave-title" onClose={() => blocker.state === "blocked" && blocker.reset()}>
        <h2 id="canvas-leave-title">{CANVAS.leaveTitle}</h2>
        <p>{CANVAS.leaveMessage}</p>
        <div className="confirm-actions">
          <button type="button" className="btn btn-danger" onClick={() => blocker.state === "blocked" && blocker.proceed()}>
            {CANVAS.leave}
          </button>
          <button type="button" className="btn btn-secondary" data-initial-focus onClick={() => blocker.state === "blocked" && blocker.reset()}>
            {CANVAS.stay}
          </button>
        </div>
      </dialog>
    </section>
  );
}
