import { createHash } from "node:crypto";
import { ToolgenError } from "../errors.ts";

/** When a tool (or prompt) name carries its upstream's name: never, only where two upstreams collide, always. */
export type PrefixMode = "never" | "conditional" | "always";
export const PREFIX_MODES: readonly PrefixMode[] = ["never", "conditional", "always"];

export interface NamingOptions {
  /** Default `always`. */
  prefix?: PrefixMode;
  /** Between the namespace and the name (default `__`); only characters a tool name may hold. */
  separator?: string;
  /** Longest name (default 128, the spec's limit; 64 for clients that impose it). */
  maxLength?: number;
}

/** One name to expose: the namespace it comes from (an upstream's name; none for a local tool) and its own name. */
export interface NameRequest {
  namespace?: string;
  name: string;
}

const ALLOWED = /^[A-Za-z0-9_.-]+$/;

export function checkNamingOptions(options: NamingOptions): Required<NamingOptions> {
  const prefix = options.prefix ?? "always";
  const separator = options.separator ?? "__";
  const maxLength = options.maxLength ?? 128;
  if (!PREFIX_MODES.includes(prefix))
    throw new ToolgenError(
      "invalid_option",
      `prefix mode must be one of ${PREFIX_MODES.join(", ")}, got "${prefix}"`,
    );
  if (!ALLOWED.test(separator) || separator.length > 8)
    throw new ToolgenError(
      "invalid_option",
      `the name separator must be 1 to 8 of [A-Za-z0-9_.-], got ${JSON.stringify(separator)}`,
    );
  if (!Number.isInteger(maxLength) || maxLength < 16 || maxLength > 128)
    throw new ToolgenError(
      "invalid_option",
      `the longest tool name must be from 16 to 128, got ${maxLength}`,
    );
  return { prefix, separator, maxLength };
}

/**
 * A name within the spec's rules (1–128 of `[A-Za-z0-9_.-]`, or a shorter limit): other characters become `_`,
 * and a name that had to change or is too long ends in 6 hex digits of the original's hash, so two names that
 * differ only in what was replaced or cut never meet.
 */
export function validToolName(name: string, maxLength = 128): string {
  if (name.length > 0 && name.length <= maxLength && ALLOWED.test(name)) return name;
  const clean = name.replace(/[^A-Za-z0-9_.-]/g, "_") || "tool";
  const tag = createHash("sha256").update(name).digest("hex").slice(0, 6);
  return `${clean.slice(0, maxLength - tag.length - 1)}_${tag}`;
}

/**
 * Chooses the exposed name of every request, in order, so that no two are alike: the prefix mode decides who
 * carries `namespace + separator`; a name that still collides (or, in `never` mode, a repeated one) is prefixed
 * anyway, and then numbered. Returns the names in request order.
 */
export function exposedNames(requests: readonly NameRequest[], options: NamingOptions = {}): string[] {
  const { prefix, separator, maxLength } = checkNamingOptions(options);
  const namespacesOf = new Map<string, Set<string | undefined>>();
  for (const r of requests) {
    const set = namespacesOf.get(r.name) ?? new Set();
    set.add(r.namespace);
    namespacesOf.set(r.name, set);
  }
  const prefixed = (r: NameRequest): string =>
    r.namespace === undefined ? r.name : `${r.namespace}${separator}${r.name}`;
  const taken = new Set<string>();
  return requests.map((r) => {
    const shared = (namespacesOf.get(r.name)?.size ?? 0) > 1;
    const wantPrefix = prefix === "always" || (prefix === "conditional" && shared);
    let name = validToolName(wantPrefix ? prefixed(r) : r.name, maxLength);
    if (taken.has(name)) name = validToolName(prefixed(r), maxLength);
    for (let n = 2; taken.has(name); n++) name = validToolName(`${prefixed(r)}${separator}${n}`, maxLength);
    taken.add(name);
    return name;
  });
}
