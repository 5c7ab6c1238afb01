"""Layouts: specs (extends, vars, when/for_each) and their evaluation into faces."""
