// Checks a bundle written by `camelup conformance export DIR` the way a harness in another
// language would, with Node.js alone: every file the manifest lists is there with its SHA-256
// and size, no other file is, and the case counts agree. (ajv checks the shapes; see .ci/run.)
// Usage: node .ci/check-bundle.mjs DIR
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";

const dir = process.argv[2];
const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
const problems = [];

function walk(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(folder, entry.name)) : [join(folder, entry.name)],
  );
}

const listed = new Set();
let casesInFiles = 0;
for (const file of manifest.files) {
  listed.add(file.path);
  const data = readFileSync(join(dir, ...file.path.split("/")));
  const sha256 = createHash("sha256").update(data).digest("hex");
  if (sha256 !== file.sha256) problems.push(`${file.path}: sha256 ${sha256}, manifest ${file.sha256}`);
  if (data.length !== file.bytes) problems.push(`${file.path}: ${data.length} bytes, manifest ${file.bytes}`);
  if (file.kind === "cases") {
    const held = JSON.parse(data.toString("utf8")).cases.length;
    if (held !== file.cases) problems.push(`${file.path}: ${held} cases, manifest ${file.cases}`);
    casesInFiles += held;
  }
}
for (const path of walk(dir)) {
  const name = relative(dir, path).split(sep).join("/");
  if (name !== "manifest.json" && !listed.has(name)) problems.push(`${name}: not in the manifest`);
}
const perRuleSet = Object.values(manifest.rule_sets).reduce((a, b) => a + b, 0);
if (casesInFiles !== manifest.cases || perRuleSet !== manifest.cases) {
  problems.push(`cases: manifest ${manifest.cases}, files ${casesInFiles}, rule sets ${perRuleSet}`);
}
for (const problem of problems) console.error(problem);
if (problems.length) process.exit(1);
console.log(
  `bundle ${dir}: suite ${manifest.suite_version}, protocol ${manifest.protocol_version},` +
    ` ${manifest.cases} cases in ${manifest.files.length} files, every checksum matches`,
);
