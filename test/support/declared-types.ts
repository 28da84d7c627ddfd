import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * Reads the declared result types of client operations with the TypeScript compiler, and checks decoded
 * JSON values against them: every required property present, every value of the declared kind, and no
 * field the type does not declare. This checks the committed types themselves, not a restatement.
 */
export class DeclaredTypes {
  readonly #checker: ts.TypeChecker;
  readonly #types = new Map<string, ts.Type>();

  /**
   * @param probes - name → a TypeScript expression whose awaited type is wanted, e.g.
   *   `options.getTrades('x')` where `options` is a declared `AsyncOptionsClient`.
   * @param prelude - declarations the expressions use (imports are relative to `test/support/`).
   */
  constructor(prelude: string, probes: Readonly<Record<string, string>>) {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const probeFile = `${root}test/support/__declared-types-probe.ts`;
    const names = Object.keys(probes);
    const source = [
      prelude,
      ...names.map(
        (name, i) =>
          `const p${i} = async () => ${probes[name]};\nexport type T${i} = Awaited<ReturnType<typeof p${i}>>;`,
      ),
    ].join('\n');
    const config = ts.readConfigFile(`${root}tsconfig.json`, ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
    const host = ts.createCompilerHost(parsed.options);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersion, ...rest) =>
      fileName === probeFile
        ? ts.createSourceFile(fileName, source, languageVersion, true)
        : getSourceFile(fileName, languageVersion, ...rest);
    const fileExists = host.fileExists.bind(host);
    host.fileExists = (fileName) => fileName === probeFile || fileExists(fileName);
    const program = ts.createProgram([probeFile], { ...parsed.options, noEmit: true }, host);
    const diagnostics = ts.getPreEmitDiagnostics(program, program.getSourceFile(probeFile));
    if (diagnostics.length > 0) {
      throw new Error(ts.formatDiagnostics(diagnostics, host));
    }
    this.#checker = program.getTypeChecker();
    const file = program.getSourceFile(probeFile) as ts.SourceFile;
    const module = this.#checker.getSymbolAtLocation(file) as ts.Symbol;
    const exports = this.#checker.getExportsOfModule(module);
    names.forEach((name, i) => {
      const symbol = exports.find((s) => s.name === `T${i}`) as ts.Symbol;
      this.#types.set(name, this.#checker.getDeclaredTypeOfSymbol(symbol));
    });
  }

  /** The declared type of a probe, as text. */
  text(name: string): string {
    return this.#checker.typeToString(this.#type(name));
  }

  /** Every way `value` departs from the declared type of probe `name` (empty when it conforms). */
  check(name: string, value: unknown, options: { integersForBigints?: boolean } = {}): string[] {
    const problems: string[] = [];
    this.#lenient = options.integersForBigints === true;
    this.#check(value, this.#type(name), '$', problems);
    return problems;
  }

  /** Whether an integer `number` passes for a `bigint` (the spec writes every int64 as `integer`). */
  #lenient = false;

  #type(name: string): ts.Type {
    const type = this.#types.get(name);
    if (!type) throw new Error(`no probe ${name}`);
    return type;
  }

  #check(value: unknown, type: ts.Type, path: string, problems: string[]): void {
    const c = this.#checker;
    const f = type.flags;
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return;
    if (type.isUnion()) {
      const members = type.types.filter((t) => !(t.flags & ts.TypeFlags.Undefined));
      let best: string[] | undefined;
      for (const member of members) {
        const p: string[] = [];
        this.#check(value, member, path, p);
        if (p.length === 0) return;
        if (!best || p.length < best.length) best = p;
      }
      // Booleans are the union true | false: report them as one kind.
      if (members.every((m) => m.flags & ts.TypeFlags.BooleanLiteral)) {
        problems.push(`${path}: expected boolean, got ${kindOf(value)}`);
        return;
      }
      problems.push(...(best ?? [`${path}: no type admits ${kindOf(value)}`]));
      return;
    }
    if (f & ts.TypeFlags.NumberLike) {
      expect(typeof value === 'number', 'number');
      return;
    }
    if (f & ts.TypeFlags.BigIntLike) {
      expect(typeof value === 'bigint' || (this.#lenient && Number.isInteger(value)), 'bigint');
      return;
    }
    if (f & ts.TypeFlags.StringLiteral) {
      expect(
        value === (type as ts.StringLiteralType).value,
        JSON.stringify((type as ts.StringLiteralType).value),
      );
      return;
    }
    if (f & ts.TypeFlags.StringLike) {
      expect(typeof value === 'string', 'string');
      return;
    }
    if (f & ts.TypeFlags.BooleanLiteral) {
      expect(value === (c.typeToString(type) === 'true'), c.typeToString(type));
      return;
    }
    if (f & ts.TypeFlags.BooleanLike) {
      expect(typeof value === 'boolean', 'boolean');
      return;
    }
    if (f & ts.TypeFlags.Null) {
      expect(value === null, 'null');
      return;
    }
    if (f & ts.TypeFlags.Undefined) {
      expect(value === undefined, 'undefined');
      return;
    }
    if (c.isArrayType(type) || c.isTupleType(type)) {
      if (!Array.isArray(value)) {
        expect(false, 'array');
        return;
      }
      const element = c.getTypeArguments(type as ts.TypeReference)[0];
      if (element && c.isArrayType(type)) {
        value.forEach((v, i) => {
          this.#check(v, element, `${path}[${i}]`, problems);
        });
      }
      return;
    }
    if (f & ts.TypeFlags.Object || type.isIntersection()) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        expect(false, 'object');
        return;
      }
      const record = value as Record<string, unknown>;
      const declared = new Set<string>();
      for (const prop of c.getPropertiesOfType(type)) {
        declared.add(prop.name);
        const optional = (prop.flags & ts.SymbolFlags.Optional) !== 0;
        if (!(prop.name in record)) {
          if (!optional) problems.push(`${path}.${prop.name}: missing`);
          continue;
        }
        this.#check(record[prop.name], c.getTypeOfSymbol(prop), `${path}.${prop.name}`, problems);
      }
      const index = c.getIndexInfoOfType(type, ts.IndexKind.String);
      for (const key of Object.keys(record)) {
        if (declared.has(key)) continue;
        if (index) this.#check(record[key], index.type, `${path}.${key}`, problems);
        else problems.push(`${path}.${key}: not declared (${kindOf(record[key])})`);
      }
      return;
    }
    problems.push(`${path}: unhandled type ${c.typeToString(type)}`);

    function expect(ok: boolean, what: string): void {
      if (!ok) problems.push(`${path}: expected ${what}, got ${kindOf(value)}`);
    }
  }
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'string' ? `string ${JSON.stringify(value.slice(0, 30))}` : typeof value;
}
