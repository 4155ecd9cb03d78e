-- Meaning-based search by binary quantization: each passage's vector is kept whole
-- here (for exact re-ranking), and as one bit per dimension in a sqlite-vec table per
-- size (passage_bits_<dims>, made by the passages repository), which is scanned first.
-- The repository moves vectors out of the older passage_vectors_<dims> tables.
ALTER TABLE `passages` ADD `embedding` blob;
