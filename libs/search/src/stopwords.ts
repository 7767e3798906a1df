/**
 * English function words: what a question is made of ("how should I …", "what is the …") and
 * not what it is about. Retrieval that counts them finds an item for any question at all,
 * since every item has "the" and "is"; the local embedder and the query's keywords leave them
 * out. Technical words that look common ("get", "make", "run", "do") are not in the list:
 * they are commands and identifiers.
 */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but nor of to in on at for with from by as into onto than then so if ' +
    'is are was were be been being am has have had having does did doing done ' +
    'it its this that these those there here what which who whom whose how why when where ' +
    'can could should would will shall may might must ought ' +
    'i me my mine we us our ours you your yours he him his she her they them their ' +
    'not no yes please just about also too very any some all each every such own same other ' +
    'again once only more most much many few up down out off over under'
  ).split(' '),
);
