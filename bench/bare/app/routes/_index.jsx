import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";

// A static page of 25 people, shaped like the app's list (name, email, a date).
const ROWS = Array.from({ length: 25 }, (_, i) => ({
  id: `user-${i + 1}`,
  name: `Last${i + 1}, First${i + 1}`,
  email: `user${i + 1}@bench.test`,
  updatedAt: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
}));

export const loader = () => json({ rows: ROWS, total: 1000 });

export default function Index() {
  const { rows, total } = useLoaderData();
  return (
    <main>
      <h1>People</h1>
      <p>{total} people</p>
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td>
                <a href={`/people/${row.id}`}>{row.name}</a>
              </td>
              <td>{row.email}</td>
              <td>{row.updatedAt}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
