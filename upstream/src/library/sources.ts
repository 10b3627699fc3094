import { newItemDefaults, type LibrarySettings } from "../../contract/library";
import type { ChainEdits } from "../chains";
import type { Db } from "../db";
import type { SpecificationsStore } from "../specifications/store";
import type { DrawingsStore } from "../templates/store";
import { libraryColumn, type LibrarySource } from "./store";

/**
 * Drawings (spec 2): name, description and tags through the drawings' store; public, generic, organizations and
 * categories are the library's. A drawing cannot be made from defaults (its file is required): `create` is null and
 * the '+ new item' menu opens the drawings' own create screen.
 */
export function drawingSource(db: Db, drawings: DrawingsStore): LibrarySource {
  const setLibrary = db.prepare("update drawings set library = ? where id = ?");
  return {
    type: "drawing",
    table: "drawings",
    categoriesIn: "library",
    save(id: string, s: LibrarySettings, actor: string | null) {
      if (setLibrary.run(libraryColumn(s, true), id).changes === 0) return false;
      return drawings.update(id, { name: s.name, description: s.description, tags: s.tags }, actor) !== null;
    },
    create: () => null,
  };
}

/**
 * Specifications (spec 1): name, public, description and tags through the specifications' store; generic,
 * organizations and categories are the library's. A new one is an abstract whose template is its description.
 */
export function specificationSource(db: Db, specifications: SpecificationsStore): LibrarySource {
  const setLibrary = db.prepare("update specifications set library = ? where id = ?");
  return {
    type: "specification",
    table: "specifications",
    categoriesIn: "library",
    save(id: string, s: LibrarySettings, actor: string | null) {
      if (setLibrary.run(libraryColumn(s, false), id).changes === 0) return false;
      const changes = { name: s.name, isPublic: s.isPublic, description: s.description, tags: s.tags };
      return specifications.update(id, changes, actor) !== null;
    },
    create(actor: string | null) {
      const d = newItemDefaults("specification");
      const created = specifications.create(
        { name: d.name, type: "abstract", isPublic: d.isPublic, description: d.description, tags: [], template: d.description },
        actor,
      );
      return created.id;
    },
  };
}

/**
 * Prompt chains: every library field is the chain's own column, and a change of them is a new version of the chain
 * made by the chains' own save (`PATCH /api/prompts/{id}`'s): the models its organizations allow are checked (400 with
 * the chains' message), the settings go into its draft too. A new chain is made on the chains' create screen. Deleting
 * a category takes it off their `categories` too.
 */
export function promptSource(edits: ChainEdits): LibrarySource {
  return {
    type: "prompt",
    table: "chains",
    categoriesIn: "column",
    save: (id: string, s: LibrarySettings, actor: string | null) => edits.save(id, s, actor) !== null,
    create: () => null,
  };
}
