import { askConfirmation, expect, expectAccessible, signIn, test, unique } from "./fixtures";

/**
 * One walk through the library per mode (with and without JavaScript): categories added, nested, moved (with
 * JavaScript also dragged by keyboard, its announcements read) and deleted;
 * an item made from '+ new item', found, categorised and renamed from its settings.
 */
test("the library: categories, then an item found, categorised and renamed", async ({ page }) => {
  const js = test.info().project.use.javaScriptEnabled !== false;
  // The walk's categories live under a shelf of their own: the other project's walk, running at the same time, moves
  // its categories around the top level.
  const shelf = unique("Shelf");
  const parent = unique("Parent");
  const child = unique("Child");
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Library" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Library" })).toBeVisible();
  await expectAccessible(page);

  // Add category: Create is disabled while the name is empty with JavaScript; without, the server says why.
  const add = page.locator("form.library-add-category");
  if (js) {
    await expect(add.getByRole("button", { name: "Create" })).toBeDisabled();
  } else {
    await add.getByRole("button", { name: "Create" }).click();
    await expect(page.getByText("Name is required")).toBeVisible();
  }
  const create = async (name: string, under?: string) => {
    await add.getByLabel("Name").fill(name);
    if (under) await add.getByLabel("Parent").selectOption({ label: under });
    await add.getByRole("button", { name: "Create" }).click();
    await expect(page.getByTestId("toast")).toContainText("Category created");
  };
  // The tree shows the top level; a category's link opens its branch (and filters the items), whose categories the
  // Parent select then offers.
  const tree = page.getByRole("navigation", { name: "Categories" });
  await create(shelf);
  await tree.getByRole("link", { name: shelf, exact: true }).click();
  await create(parent, shelf);
  await create(child, `${shelf} > ${parent}`);
  await tree.getByRole("link", { name: parent, exact: true }).click();
  // Nested lists without JavaScript; with it one list in tree order, each row's handle named by its path.
  if (js) await expect(tree.getByRole("button", { name: `Drag ${shelf} > ${parent} > ${child}` })).toBeVisible();
  else await expect(tree.getByRole("listitem").filter({ hasText: parent }).getByRole("link", { name: child, exact: true })).toBeVisible();

  // Move the child out to the shelf, then up before its old parent.
  await tree.getByRole("link", { name: `Edit ${child}` }).click();
  await tree.getByLabel("Parent", { exact: true }).selectOption({ label: shelf });
  await tree.getByRole("button", { name: "Move", exact: true }).click();
  await expect(page.getByTestId("toast")).toContainText("Category saved");
  await tree.getByRole("button", { name: `Move up ${child}` }).click();
  await expect(page.getByTestId("toast")).toContainText("Category saved");
  // With JavaScript, by keyboard drag: lift the child, down past its old parent, right to go under it, drop; each step
  // is announced.
  const childPath = js ? `${shelf} > ${parent} > ${child}` : `${shelf} > ${child}`;
  if (js) {
    // The toast can come before the tree's own data: the drag starts once the tree shows the new order.
    const handles = () => tree.getByRole("button", { name: /^Drag / }).evaluateAll((b) => b.map((e) => e.getAttribute("aria-label")));
    await expect.poll(async () => (await handles()).join("|")).toContain(`Drag ${shelf} > ${child}|Drag ${shelf} > ${parent}`);
    const said = page.locator('[id^="DndLiveRegion"]');
    await tree.getByRole("button", { name: `Drag ${shelf} > ${child}` }).focus();
    await page.keyboard.press("Space");
    // Lifted: said, or (when dnd-kit reports the first position after it) where it is now.
    await expect(said).toHaveText(new RegExp(`^(Picked up category ${shelf} > ${child}\\.|${shelf} > ${child} is under ${shelf}, position 1 of 2\\.)$`));
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowRight");
    await expect(said).toHaveText(`${shelf} > ${child} is under ${shelf} > ${parent}, position 1 of 1.`);
    await page.keyboard.press("Space");
    await expect(said).toHaveText(`Category ${shelf} > ${child} was dropped under ${shelf} > ${parent}, position 1 of 1.`);
    await expect(page.getByTestId("toast")).toContainText("Category saved");
    await expect(tree.getByRole("button", { name: `Drag ${childPath}` })).toBeVisible();
  }

  // '+ new item' → Specification: made with the defaults and selected.
  await page.getByText("+ new item").click();
  await page.getByRole("button", { name: "Specification", exact: true }).click();
  const settings = page.locator("form.library-settings-form");
  await expect(settings.getByLabel("Name")).toHaveValue("new specification");
  await expectAccessible(page);

  // Its settings: the name's rules, then a name, the category and a tag.
  const name = unique("Library item");
  await settings.getByLabel("Name").fill("abc");
  await settings.getByRole("button", { name: "Save" }).click();
  await expect(settings.getByText("Name must be at least 4 characters.")).toBeVisible();
  await settings.getByLabel("Name").fill(`  ${name}  `);
  // The category picker: a search (empty or 3 characters and more; with JavaScript in place) and checkboxes.
  if (js) await settings.getByLabel("Search categories to add").fill(child);
  await settings.getByRole("group", { name: "Categories" }).getByLabel(childPath, { exact: true }).check();
  await settings.getByLabel("Tags").fill("walk");
  await settings.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Saved");

  // Found by name, under its category.
  await tree.getByRole("link", { name: child, exact: true }).click();
  await page.getByRole("search").filter({ has: page.getByLabel("Tag") }).getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Apply" }).click();
  // The URL first: the item is under its category before the search too, so its link alone does not say Apply is done.
  await expect.poll(() => new URL(page.url()).searchParams.get("name")).toBe(name);
  await expect(page.getByRole("region", { name: childPath }).getByRole("link", { name })).toBeVisible();

  // Delete the parent category (asks first); the child stays.
  await tree.getByRole("link", { name: `Edit ${parent}` }).click();
  const confirm = await askConfirmation(page, tree.getByRole("button", { name: `Delete ${parent}` }));
  await expect(confirm.getByRole("heading", { name: "Delete category?" })).toBeVisible();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("toast")).toContainText("Category deleted");
  await expect(tree.getByRole("link", { name: parent, exact: true })).toHaveCount(0);
  await expect(tree.getByRole("link", { name: child, exact: true })).toBeVisible();
});
