export * from "./common";
export * from "./permissions";
export * from "./auth";
export * from "./people";
export * from "./organizations";
export * from "./feedback";
export * from "./workflows";
export * from "./graph";
