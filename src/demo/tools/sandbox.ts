import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";

/**
 * The folder the demo's file tools may touch: `$TOOLGEN_DEMO_SANDBOX`, or `.cache/demo-sandbox` under the
 * working directory. It is created with a few sample files on first use; paths may not leave it.
 */
export const SAMPLE_FILES: Record<string, string> = {
  "notes.txt": "Buy milk\nCall Ana about the trip\nFinish the quarterly report\nBook the dentist\n",
  "sales.csv":
    "region,month,units,revenue\nnorth,jan,120,2400\nsouth,jan,80,1500\nnorth,feb,150,3100\nsouth,feb,95,1850\neast,feb,60,1320\n",
  "config.json":
    JSON.stringify(
      { name: "toolgen", version: "0.1.0", server: { host: "127.0.0.1", port: 8765 }, retries: 3 },
      null,
      2,
    ) + "\n",
  "poem.txt": "The sea is calm tonight\nThe tide is full, the moon lies fair\nUpon the straits\n",
  "todo.md": "# Todo\n- write the demo\n- train the model\n- ship it\n",
};

export function sandboxRoot(): string {
  const root = resolve(process.env.TOOLGEN_DEMO_SANDBOX ?? join(".cache", "demo-sandbox"));
  if (!existsSync(root)) {
    mkdirSync(root, { recursive: true });
    for (const [name, text] of Object.entries(SAMPLE_FILES)) writeFileSync(join(root, name), text);
  }
  return root;
}

/** A path inside the sandbox; `..`, absolute paths and links out of it are refused. */
export function sandboxPath(path: string): string {
  const root = realpathSync(sandboxRoot());
  const full = resolve(root, path);
  const rel = relative(root, full);
  if (path === "" || rel.startsWith("..") || isAbsolute(rel)) {
    throw new Error(`${JSON.stringify(path)} is outside the sandbox folder; give a name like notes.txt`);
  }
  if (existsSync(full) && relative(root, realpathSync(full)).startsWith("..")) {
    throw new Error(`${JSON.stringify(path)} links outside the sandbox folder`);
  }
  return full;
}
