// A module resolve hook (node:module register) for tool files: a file that imports "toolgen" or "toolgen/…"
// but lives outside any project with toolgen installed (a script in ~/tools, say) gets this copy of toolgen
// instead of ERR_MODULE_NOT_FOUND. Resolution from the file's own folder is tried first, so a project's own
// toolgen always wins. Plain JavaScript: hooks run in their own thread, before any TypeScript loader.
let sourceConditions = false;

/** `data.source`: this copy runs from its TypeScript sources (a checkout), so "toolgen" means src/, not dist/. */
export function initialize(data) {
  sourceConditions = data?.source === true;
}

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    if (error?.code !== "ERR_MODULE_NOT_FOUND" || !/^toolgen(\/|$)/.test(specifier)) throw error;
    // package.json "exports" resolves the package's own name from inside it (a self-reference)
    const conditions = sourceConditions ? [...context.conditions, "toolgen-source"] : context.conditions;
    return nextResolve(specifier, { ...context, conditions, parentURL: import.meta.url });
  }
}
