import { describe, expect, it } from 'vitest';
import { student } from '../../testing/factories';
import { filterStudents } from './student-search';

const students = [
  student(1, { full_name: 'Asha Rao', class_name: '7', parent_name: 'Meena Rao', parent_phone: '+919876500001' }),
  student(2, { full_name: 'Vikram Shah', class_name: '10', parent_name: 'Ravi Shah', parent_phone: '+919812300002' }),
  student(12, { full_name: 'Zoya Khan', class_name: '9', parent_name: 'Imran Khan', parent_phone: '+447700900123' }),
];

const names = (search: string) => filterStudents(students, search).map((s) => s.full_name);

describe('the students search', () => {
  it('shows everyone for a blank search', () => {
    expect(filterStudents(students, '')).toBe(students);
    expect(names('   ')).toHaveLength(3);
  });

  it('matches the full name, case-insensitively', () => {
    expect(names('asha')).toEqual(['Asha Rao']);
    expect(names('SHAH')).toEqual(['Vikram Shah']);
  });

  it('matches the student id', () => {
    expect(names('stu0012')).toEqual(['Zoya Khan']);
    expect(names('STU000')).toEqual(['Asha Rao', 'Vikram Shah']);
  });

  it('matches the class', () => {
    expect(names('10')).toEqual(['Vikram Shah']);
  });

  it('matches the parent name', () => {
    expect(names('meena')).toEqual(['Asha Rao']);
    expect(names('imran')).toEqual(['Zoya Khan']);
  });

  it('matches the parent phone', () => {
    expect(names('98123')).toEqual(['Vikram Shah']);
    expect(names('+44')).toEqual(['Zoya Khan']);
  });

  it('ignores spaces around the search and finds nothing for an unknown text', () => {
    expect(names('  rao ')).toEqual(['Asha Rao']);
    expect(names('nobody')).toEqual([]);
  });
});
