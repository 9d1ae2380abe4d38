// Functions of the phone app over a number of lines (default 80), longest first (issue 34: the
// figure in docs/architecture.md). `node devtools/long_functions.mjs [limit]`; the TypeScript
// compiler (installed by `make` for the type check) parses the modules.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const ROOT = new URL("..", import.meta.url).pathname;
const limit = Number(process.argv[2] || 80);

/** @param {string} dir @returns {string[]} */
function modules(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return modules(path);
    return name.endsWith(".js") ? [path] : [];
  });
}

const found = [];
for (const path of [join(ROOT, "pwa/app.js"), join(ROOT, "pwa/sw.js"), ...modules(join(ROOT, "pwa/js"))]) {
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = node.name?.getText() || (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText() : "(anonymous)");
      if (end - start + 1 > limit) found.push({ where: `${relative(ROOT, path)}:${start + 1}`, name, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
found.sort((a, b) => b.lines - a.lines);
for (const f of found) console.log(`${f.lines}\t${f.name}\t${f.where}`);
console.log(`functions over ${limit} lines in pwa/: ${found.length}`);
