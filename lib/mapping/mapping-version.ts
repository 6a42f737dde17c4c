/**
 * Bumped whenever a mapping rule changes what a source row becomes (a field, a normaliser, an issue):
 * an incremental preview only re-maps changed rows, so records mapped by older rules must be redone.
 */
export const MAPPING_VERSION = 3;
