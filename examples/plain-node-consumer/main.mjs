// The package as a user installs it: build, `npm pack`, install the tarball into an empty project, run
// consumer.mjs there with plain node. Takes a minute or more (the build and the install are most of it).
//   node examples/plain-node-consumer/main.mjs               (builds and packs the checkout)
//   node examples/plain-node-consumer/main.mjs toolgen-0.1.0.tgz   (installs a tarball you already have)
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "toolgen-consumer-"));
// A child npm must not take this process's npm settings for its own project (when run from `npm test`).
const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^npm_(?!config_(cache|registry|userconfig)$)/i.test(k)),
);
const run = (command, args, cwd) =>
  execFileSync(command, args, { cwd, env, encoding: "utf8", stdio: "pipe" });
const step = (text) => process.stderr.write(`${text}\n`);

try {
  let tarball = process.argv[2] && resolve(process.argv[2]);
  if (!tarball) {
    step("building dist/ (npm run build) …");
    run(process.execPath, [join(root, "scripts/build.mjs")], root);
    step("npm pack …");
    const [packed] = JSON.parse(
      run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], root),
    );
    tarball = join(work, packed.filename);
  }
  const project = join(work, "project");
  mkdirSync(project);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "my-app", private: true, type: "module" }),
  );
  step(`npm install ${tarball} …`);
  run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball], project);
  copyFileSync(fileURLToPath(new URL("consumer.mjs", import.meta.url)), join(project, "consumer.mjs"));
  step("node consumer.mjs");
  process.stdout.write(run(process.execPath, ["consumer.mjs"], project));
} finally {
  rmSync(work, { recursive: true, force: true });
}
