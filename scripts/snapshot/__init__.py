"""Build-time Pyodide memory snapshot of the calculators' Python (issue "Fast start")."""
