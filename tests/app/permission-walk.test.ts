import { describe, expect, it } from "vitest";
import { ROUTES, type RouteEntry } from "~/lib/routes";
import { CategorizationQueriesResource } from "@contract/categorization";
import { FormsResource } from "@contract/forms";
import { MessagesResource } from "@contract/messages";
import { OrganizationsResource } from "@contract/organizations";
import { ALL_PERMISSIONS, PERMISSION_KEYS } from "@contract/permissions";
import { ReportsResource } from "@contract/reports";
import type { ResourceDefinition } from "@contract/resource";
import { RulesResource } from "@contract/rules";
import { SpecificationsResource } from "@contract/specifications";
import { DrawingsResource, ShapesResource, VisioTemplatesResource, WordTemplatesResource } from "@contract/templates";

/** Each collection of the contract and the screens that show it (list, create, edit). */
const SCREENS: [ResourceDefinition, string][] = [
  [SpecificationsResource, "/specifications"],
  [OrganizationsResource, "/organizations"],
  [FormsResource, "/forms"],
  [ReportsResource, "/reports"],
  [MessagesResource, "/messages"],
  [RulesResource, "/rules"],
  [WordTemplatesResource, "/documents/word"],
  [VisioTemplatesResource, "/documents/visio"],
  [DrawingsResource, "/drawings"],
  [ShapesResource, "/shapes"],
  [CategorizationQueriesResource, "/categorization"],
];

const entry = (path: string): RouteEntry | undefined => ROUTES.find((r) => r.path === path);

describe("the route table and the contract's resources name the same permissions", () => {
  it("every permission in the route table is one a user can hold", () => {
    for (const r of ROUTES) {
      for (const p of [r.permission, r.write, r.create]) if (p) expect(ALL_PERMISSIONS, `${r.path}: ${p}`).toContain(p);
    }
  });

  for (const [resource, base] of SCREENS) {
    it(`${base} ↔ ${resource.path}`, () => {
      const list = entry(base);
      expect(list, `${base} is in the route table`).toBeDefined();
      expect(list!.permission, `${base}: who sees the list`).toBe(resource.permissions.read);
      if (list!.create !== undefined) expect(list!.create, `${base}: who sees '+ add new'`).toBe(resource.permissions.create);
      for (const create of [`${base}/create`, `${base}/new`]) {
        const e = entry(create);
        if (!e) continue;
        expect(e.permission, `${create}: who may open it`).toBe(resource.permissions.create);
        expect(e.write ?? resource.permissions.create, `${create}: who may save it`).toBe(resource.permissions.create);
      }
      for (const edit of [`${base}/:id`, `${base}/:id/edit`]) {
        const e = entry(edit);
        if (!e) continue;
        expect(e.permission, `${edit}: who may open it`).toBe(resource.permissions.read);
        if (e.write !== undefined) expect(e.write, `${edit}: who may save it`).toBe(resource.permissions.write);
      }
    });
  }

  it("the permission keys are the spec's, each read and write", () => {
    expect(ALL_PERMISSIONS).toHaveLength(PERMISSION_KEYS.length * 2);
  });
});
