"""The shared model: grids, slots, codecs and the file formats between stages."""
