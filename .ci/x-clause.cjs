// camelup's schemas annotate a location with the spec clause it encodes ("x-clause": an
// annotation, never an assertion). Declared here so that Ajv's strict mode, which refuses
// unknown keywords, knows it: pass this module with -c beside ajv-formats.
module.exports = (ajv) => ajv.addKeyword("x-clause");
