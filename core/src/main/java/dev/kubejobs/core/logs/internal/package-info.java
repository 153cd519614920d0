/** The implementation of the driver log reader. Not a published API: it may change any release. */
package dev.kubejobs.core.logs.internal;
