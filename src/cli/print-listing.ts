/**
 * Listings for people (`tools`, `prompts`, `sessions`). Apart from output.ts, which every command
 * loads: measuring text for wrapping builds Unicode segmenters and emoji patterns when loaded, a
 * cost only the listing commands should pay.
 */
import { wrapListing } from '../present/listing-layout.js';
import { LISTING_WIDTH, type Output } from './output.js';

/** A listing wrapped to the terminal's width under its text column. */
export function printListing(output: Output, listing: string): void {
  output.stdout(wrapListing(listing, output.columns ?? LISTING_WIDTH));
}
