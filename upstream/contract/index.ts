export * from "./common";
export * from "./permissions";
export * from "./auth";
export * from "./organizations";
export * from "./feedback";
