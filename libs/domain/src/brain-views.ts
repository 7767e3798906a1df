/** The brain's answers: `GET /api/v2/brain`, its summary, and the MCP brain. Types only. */

export interface BrainTreeNode {
  name: string;
  path: string;
  items: number;
  children: BrainTreeNode[];
}

export interface LayerStats {
  items: number;
  tokens: number;
  /** Room the layer had left when it was filled (it flowed down, or went unused). */
  unused: number;
}

export interface Brain {
  document: string;
  tokenEstimate: number;
  /** Items shown in Layers 1 and 2. */
  itemsLoaded: number;
  schemaKeys: string[];
  brainHash: string;
  tree: BrainTreeNode[];
  layers: { layer0: LayerStats; layer1: LayerStats; layer2: LayerStats; layer3: LayerStats };
  /** Ids of the items shown in Layers 1 and 2, in document order. */
  included: string[];
}

/** `GET /api/v2/brain` (and the MCP brain): the brain without its bookkeeping. */
export type BrainView = Omit<Brain, 'included'>;

/** `GET /api/v2/brain/summary`: the CLAUDE.md summary. */
export interface SummaryView {
  document: string;
  tokenEstimate: number;
  brainHash: string;
}
