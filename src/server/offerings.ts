import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import { exposedNames, type NamingOptions } from "./naming.ts";
import type { UpstreamServer } from "./upstream.ts";

type Item = Record<string, unknown>;

/** One upstream's prompts, resources and resource templates, as it listed them. */
export interface UpstreamLists {
  upstream: UpstreamServer;
  prompts: Item[];
  resources: Item[];
  templates: Item[];
}

/** Lists what one upstream offers besides tools (each kind only if its capabilities declare it). */
export async function listOfferings(upstream: UpstreamServer): Promise<UpstreamLists> {
  const capabilities = await upstream.capabilities();
  const [prompts, resources, templates] = await Promise.all([
    capabilities.prompts ? upstream.listAll("prompts/list", "prompts") : [],
    capabilities.resources ? upstream.listAll("resources/list", "resources") : [],
    capabilities.resources ? upstream.listAll("resources/templates/list", "resourceTemplates") : [],
  ]);
  return { upstream, prompts, resources, templates };
}

/**
 * The prompts, resources and resource templates of every live upstream, merged: their names are namespaced
 * like tool names; resources keep their URIs (a URI is what clients and tool results refer to) and a read,
 * subscription or completion goes to the upstream that listed the URI or a template matching it.
 */
/** Every item of one kind, with the exposed name the naming options give it among all upstreams' items. */
function namespaced(
  lists: readonly UpstreamLists[],
  kind: (l: UpstreamLists) => Item[],
  naming: NamingOptions,
): { upstream: UpstreamServer; item: Item; name: string }[] {
  const items = lists.flatMap((l) => kind(l).map((item) => ({ upstream: l.upstream, item })));
  const names = exposedNames(
    items.map(({ upstream, item }) => ({ namespace: upstream.spec.name, name: String(item.name) })),
    naming,
  );
  return items.map((x, i) => ({ ...x, name: names[i]! }));
}

export class Offerings {
  readonly prompts: Item[] = [];
  readonly resources: Item[] = [];
  readonly templates: Item[] = [];
  private readonly promptRoutes = new Map<string, { upstream: UpstreamServer; name: string }>();
  private readonly uriRoutes = new Map<string, UpstreamServer>();
  private readonly templateRoutes: { template: UriTemplate; raw: string; upstream: UpstreamServer }[] = [];
  private readonly withResources: UpstreamServer[] = [];

  constructor(lists: readonly UpstreamLists[], naming: NamingOptions) {
    const prompts = namespaced(lists, (l) => l.prompts, naming);
    for (const { upstream, item, name } of prompts) {
      this.prompts.push({ ...item, name });
      this.promptRoutes.set(name, { upstream, name: String(item.name) });
    }
    // Resource and template names carry their upstream's name as prompts do; URIs stay as the upstream wrote them.
    const resources = namespaced(lists, (l) => l.resources, naming);
    const templates = namespaced(lists, (l) => l.templates, naming);
    for (const { upstream, resources: r, templates: t } of lists)
      if (r.length > 0 || t.length > 0) this.withResources.push(upstream);
    for (const { upstream, item, name } of resources) {
      const uri = String(item.uri);
      if (this.uriRoutes.has(uri)) continue; // the first upstream to list a URI serves it
      this.uriRoutes.set(uri, upstream);
      this.resources.push({ ...item, name });
    }
    for (const { upstream, item, name } of templates) {
      this.templates.push({ ...item, name });
      try {
        const raw = String(item.uriTemplate);
        this.templateRoutes.push({ template: new UriTemplate(raw), raw, upstream });
      } catch {
        // an unreadable template is still listed; reads of it go to the fallback below
      }
    }
  }

  /** The upstream and own name of an exposed prompt name. */
  prompt(name: string): { upstream: UpstreamServer; name: string } | undefined {
    return this.promptRoutes.get(name);
  }

  /**
   * The upstream that serves a URI: the one that listed it, else one whose template matches, else the only
   * upstream with resources at all.
   */
  resourceOwner(uri: string): UpstreamServer | undefined {
    const listed = this.uriRoutes.get(uri);
    if (listed) return listed;
    for (const route of this.templateRoutes) if (route.template.match(uri)) return route.upstream;
    return this.withResources.length === 1 ? this.withResources[0] : undefined;
  }

  /** The upstream that listed a URI template (for completion of its variables). */
  templateOwner(uriTemplate: string): UpstreamServer | undefined {
    return (
      this.templateRoutes.find((r) => r.raw === uriTemplate)?.upstream ?? this.resourceOwner(uriTemplate)
    );
  }
}
