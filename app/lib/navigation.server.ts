/**
 * The side navigation for a user's permissions, computed in loaders only: importing the route table through this
 * `.server` module keeps it out of the browser's JavaScript (the table grows with every screen; the client needs only
 * the entries the loader sends).
 */
export { navigationFor } from "./routes";
