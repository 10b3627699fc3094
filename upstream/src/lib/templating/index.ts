/**
 * The one Handlebars runtime of the product (specifications' generator, messages' preview, chains' template links):
 * the product's helpers (helpers.ts), renders bounded in iterations, output and time (runtime.ts, limits in
 * contract/templating.ts), run on worker threads that are terminated when they overrun (pool.ts).
 */
export { TemplateError, TemplateRenderer,  renderTemplates,  type TemplateRendererOptions } from "./pool";
;
export { productHelpers,  } from "./helpers";
