// camelup's schemas annotate a location with the spec clause it encodes ("x-clause") and an
// array that stands for a set with its canonical order ("x-set"): annotations, never
// assertions. Declared here so that Ajv's strict mode, which refuses unknown keywords, knows
// them: pass this module with -c beside ajv-formats.
module.exports = (ajv) => {
  ajv.addKeyword("x-clause");
  ajv.addKeyword("x-set");
};
