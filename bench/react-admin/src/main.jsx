// The react-admin side of `npm run bench:browser`: the same 25 people as /people, the way react-admin 5's docs build a
// list (Admin + Resource + List + DataTable, ra-data-simple-rest over HTTP). Served by bench/browser.ts at /, data at /api.
import { createRoot } from "react-dom/client";
import { Admin, DataTable, DateField, EditButton, List, Resource } from "react-admin";
import simpleRestProvider from "ra-data-simple-rest";

const dataProvider = simpleRestProvider(`${window.location.origin}/api`);

const UserList = () => (
  <List sort={{ field: "lastName", order: "ASC" }} perPage={25}>
    <DataTable>
      <DataTable.Col source="email" />
      <DataTable.Col label="Full name" render={(user) => `${user.firstName} ${user.lastName}`} />
      <DataTable.Col source="createdAt" field={DateField} />
      <DataTable.Col source="updatedAt" field={DateField} />
      <DataTable.Col label="Actions">
        <EditButton />
      </DataTable.Col>
    </DataTable>
  </List>
);

createRoot(document.getElementById("root")).render(
  <Admin dataProvider={dataProvider}>
    <Resource name="users" list={UserList} edit={() => null} />
  </Admin>,
);
