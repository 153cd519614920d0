/**
 * Implementation details of the testkit: JSON patching and label selectors. Not a published API; it
 * may change in any release.
 */
package dev.kubejobs.testkit.internal;
