/** One UTF-8 encoder for the entry's modules that write bytes (Node bodies, relay frames). */
export const encoder = /* @__PURE__ */ new TextEncoder();
