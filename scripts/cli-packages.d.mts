/** The packages only the bin uses, bundled into it (see cli-packages.mjs). */
export declare const cliPackageNames: readonly string[];
/** A bare import of one of them, or of a module path below one. */
export declare const cliPackagePattern: RegExp;
