// Run by `camelup docs site` with Node.js: starts Pyodide once, unpacks the engine's archive and
// imports camelup.tools.live, then writes Pyodide's memory snapshot. assets/live.js starts from
// that snapshot instead of booting the interpreter and importing camelup in the reader's
// browser, which takes several times longer. Arguments: PYODIDE_DIR ENGINE_ZIP SNAPSHOT_OUT.
// (_makeSnapshot and _loadSnapshot are Pyodide's experimental API: the site pins its version.)
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [folder, archive, out] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(folder, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: folder + path.sep, _makeSnapshot: true });
pyodide.unpackArchive(new Uint8Array(readFileSync(archive)), "zip", { extractDir: "/engine" });
pyodide.runPython("import sys; sys.path.insert(0, '/engine'); import camelup.tools.live");
writeFileSync(out, pyodide.makeMemorySnapshot());
