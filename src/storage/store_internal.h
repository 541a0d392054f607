// Formerly the storage layer's shared internals; they are now private to it (storage/rocks.h).
// Kept so that existing includes compile; include "storage/store.h" instead.
#ifndef ALIGNDB_STORAGE_STORE_INTERNAL_H_
#define ALIGNDB_STORAGE_STORE_INTERNAL_H_

#include "storage/store.h"
#include "text/text.h"

#endif  // ALIGNDB_STORAGE_STORE_INTERNAL_H_
