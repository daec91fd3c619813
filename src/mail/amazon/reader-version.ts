/**
 * The reader's version: raise it whenever the reader reads more or better, so that the pipeline
 * reads again the messages it recorded as not understood or read incompletely. A module of its
 * own so the pipeline can know it without loading the reader (which loads with the first mail).
 */
export const READER_VERSION = 2;
